import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuntimeDriver } from '../driver/runtime-driver.js';
import { asNotDriven } from '../driver/runtime-fault.js';
import { SystemFallback } from '../provider/system-fallback.js';
import { textTurn } from '../provider/turns.js';
import { openTarget, type RuntimeSelection } from '../runtime-target.js';
import { fakeProvider, startRuntime } from '../runtime-start.js';
import { suiteSettings } from './suite-settings.js';

export interface SmokeCheck {
  name: string;
  ok: boolean;
  detail: string;
  /** A failed check where the runtime could not be driven at all. */
  notDriven?: boolean;
}

/**
 * A few seconds' check for adapter authors: the handshake, one prompt answered through the fake
 * provider, the history that results, and a clean kill. Stops at the first failed check.
 */
export async function smoke(
  selection: RuntimeSelection,
  options: { timeoutScale: number; validate: boolean },
  report: (check: SmokeCheck) => void,
): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'kit-smoke-'));
  const target = await openTarget(selection);
  const provider = fakeProvider(suiteSettings().dialect);
  const stopRouting = target.route(provider);
  provider.enqueue({ turn: textTurn('pong', 2) });
  let driver: RuntimeDriver | undefined;
  const check = async (name: string, step: () => Promise<string>): Promise<void> => {
    try {
      report({ name, ok: true, detail: await step() });
    } catch (error) {
      report({
        name,
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
        notDriven: asNotDriven(error) !== undefined,
      });
      throw error;
    }
  };
  try {
    await check('handshake', async () => {
      mkdirSync(join(dir, 'store'));
      driver = await startRuntime(target, provider, {
        storeDir: join(dir, 'store'),
        now: '2026-01-15T09:00:00.000Z',
        home: dir,
        ...options,
      });
      const { runtime, profiles, capabilities, shell } = driver.description;
      const described = `${runtime.name} ${runtime.version} (${runtime.language}); profiles ${profiles.join(', ')}; capabilities ${capabilities.join(', ') || 'none'}`;
      return shell ? `${described}; shell ${shell.tool} (${shell.commandField})` : described;
    });
    let sessionId = '';
    await check('session', async () => {
      const location = join(dir, 'workspace');
      mkdirSync(location);
      ({ sessionId } = await driver!.createSession(location));
      return `created ${sessionId}`;
    });
    await check('one prompt answered', async () => {
      await driver!.admit(sessionId, 'ping');
      await driver!.idle(sessionId);
      // A runtime may follow the prompt with system messages of its own (a date, its environment),
      // and wrap context of its own into the user turn, as it declared.
      const sent = provider.requests.at(-1)?.messages.findLast((message) => message.role !== 'system');
      const template = driver!.description.texts['system-message.fallback'];
      const fallback = template === undefined ? undefined : new SystemFallback(template);
      const text = sent && (fallback?.split(sent.text) ?? { user: sent.text }).user;
      if (provider.requests.length !== 1 || text !== 'ping') {
        throw new Error(
          `expected one provider request whose last user message is "ping", got ${provider.requests.length}`,
        );
      }
      return 'the provider received "ping"';
    });
    await check('durable history', async () => {
      const history = (await driver!.history(sessionId)).map((m) => `${m.role}:${'text' in m ? m.text : ''}`);
      if (history.join(' ') !== 'user:ping assistant:pong') throw new Error(`history is ${JSON.stringify(history)}`);
      return 'user "ping", assistant "pong"';
    });
    await check('kill', async () => {
      await driver!.stop();
      return 'the adapter process is gone';
    });
    return true;
  } catch {
    return false;
  } finally {
    await driver?.stop().catch(() => {});
    stopRouting();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
