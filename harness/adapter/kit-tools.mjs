import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The kit's deterministic tools (`echo`, `fail`, `gate`, `produce`; docs/implementers.md), for an
 * adapter whose runtime runs tools the host defines (the capability `kit-tools`). Each is its
 * name, a description, a JSON Schema of its input and `run(input, {location, gates, signal})`,
 * whose outcome an adapter hands to its runtime in the runtime's own form:
 * `{text}`, `{text, structured}` (a structured result, `text` its JSON), `{text, keptAt}` (the
 * absolute path of the file the tool kept the complete output in) or `{error}`. Each leaves a line
 * in a log file of the location, so a repeated execution is visible.
 */
export const KIT_TOOLS = [
  {
    name: 'echo',
    description: 'Appends `text` as a line to echo.log in the working directory and returns it.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    async run(input, { location }) {
      const text = String(input.text ?? '');
      await appendFile(join(location, 'echo.log'), `${text}\n`);
      return { text };
    },
  },
  {
    name: 'fail',
    description: 'Fails with `message`.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    async run(input) {
      return { error: String(input.message ?? 'failed') };
    },
  },
  {
    name: 'gate',
    description: 'Appends `name` to gate.log, then waits until the gate called `name` is opened.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    async run(input, { location, gates, signal }) {
      const name = String(input.name);
      await appendFile(join(location, 'gate.log'), `${name}\n`);
      await gates.pass(name, signal);
      return { text: `gate ${name} opened` };
    },
  },
  {
    name: 'produce',
    description:
      'Returns `text`, or only the structured result `structured`. With `keptAt`, first keeps the text in ' +
      'that file of the working directory and names it as the complete output. With `gate`, first waits as ' +
      'the gate tool does.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' }, structured: {}, keptAt: { type: 'string' }, gate: { type: 'string' } },
    },
    async run(input, { location, gates, signal }) {
      if (input.gate !== undefined) {
        await appendFile(join(location, 'gate.log'), `${input.gate}\n`);
        await gates.pass(String(input.gate), signal);
      }
      if (input.structured !== undefined)
        return { text: JSON.stringify(input.structured), structured: input.structured };
      const text = String(input.text ?? '');
      if (input.keptAt === undefined) return { text };
      const keptAt = join(location, String(input.keptAt));
      await writeFile(keptAt, text);
      return { text, keptAt };
    },
  },
];

/** Gates the `gate` tool waits on; the kit opens them by name (`gate.open`) and waits for one to block (`gate.wait`). */
export class GateBoard {
  waiting = new Map();
  opened = new Set();
  watchers = new Map();

  pass(name, signal) {
    if (this.opened.has(name)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(name);
        reject(signal.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(name, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      for (const notify of this.watchers.get(name) ?? []) notify();
      this.watchers.delete(name);
    });
  }

  open(name) {
    this.opened.add(name);
    this.waiting.get(name)?.();
    this.waiting.delete(name);
  }

  /** Resolves once a tool is blocked on the gate. */
  blocked(name) {
    if (this.waiting.has(name)) return Promise.resolve();
    return new Promise((resolve) => this.watchers.set(name, [...(this.watchers.get(name) ?? []), resolve]));
  }
}
