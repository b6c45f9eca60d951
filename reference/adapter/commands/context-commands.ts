import { RuntimeError } from '../../errors.js';
import type { Json } from '../../context/context-source.js';
import { opt, type Command, type CommandTable } from '../command.js';
import type { RuntimeHost } from '../runtime-host.js';

/** The context epoch, the kit's context contributors and sources, and reconciliation. */
export function contextCommands({ runtime, kitSources }: RuntimeHost): CommandTable {
  const registry = (c: Command) => runtime.contexts.registry(...contributionLocation(c));
  return {
    epoch: (c) => {
      const epoch = runtime.epoch(String(c.sessionId));
      return { baseline: epoch?.baseline ?? null, snapshot: epoch?.snapshot ?? {} };
    },
    'context.contributor.register': (c) => {
      const sources = c.sources as { key: string; removable?: boolean; latency?: number }[];
      registry(c).register(String(c.contributor), () =>
        sources.map((s) => kitSources.source(s.key, s.removable ?? false, s.latency ?? 0)),
      );
    },
    'context.contributor.remove': (c) => {
      if (!registry(c).remove(String(c.contributor)))
        throw new RuntimeError('not-found', `no contributor ${c.contributor}`);
    },
    'context.source.set': (c) =>
      kitSources.set(
        String(c.key),
        'value' in c ? { value: c.value as Json } : { state: c.state as 'unavailable' | 'absent' },
        'nextValue' in c ? { value: c.nextValue as Json } : undefined,
      ),
    'context.reconcile': async (c) => ({ outcome: await runtime.previewContext(String(c.sessionId)) }),
  };
}

/** Kit contributors are registered for a location, as the registry is location-scoped. */
function contributionLocation(c: Command): [string, string] {
  const location = String(c.location);
  return [location, opt(c.projectRoot) ?? location];
}
