import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The kit's deterministic tools as pi custom tools (`defineTool`, passed in `customTools`): pi runs
 * them exactly like its own tools, in the session's working directory. Each leaves a line in a log
 * file of the location, so a repeated execution is visible.
 */
export function kitTools(defineTool, gates, location) {
  const text = (value) => ({ content: [{ type: 'text', text: value }], details: {} });
  return [
    defineTool({
      name: 'echo',
      label: 'echo',
      description: 'Appends `text` as a line to echo.log in the working directory and returns it.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      async execute(_id, params) {
        const value = String(params.text ?? '');
        await appendFile(join(location(), 'echo.log'), `${value}\n`);
        return text(value);
      },
    }),
    defineTool({
      name: 'fail',
      label: 'fail',
      description: 'Fails with `message`.',
      parameters: { type: 'object', properties: { message: { type: 'string' } } },
      async execute(_id, params) {
        throw new Error(String(params.message ?? 'failed'));
      },
    }),
    defineTool({
      name: 'gate',
      label: 'gate',
      description: 'Appends `name` to gate.log, then waits until the gate called `name` is opened.',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      async execute(_id, params, signal) {
        const name = String(params.name);
        await appendFile(join(location(), 'gate.log'), `${name}\n`);
        await gates.pass(name, signal);
        return text(`gate ${name} opened`);
      },
    }),
    defineTool({
      name: 'produce',
      label: 'produce',
      description:
        'Returns `text`, or only the structured result `structured`. With `keptAt`, first keeps the text in ' +
        'that file of the working directory and names it as the complete output.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, structured: {}, keptAt: { type: 'string' } },
      },
      async execute(_id, params) {
        // pi's tool results carry model-visible content and `details` the model never sees: the
        // structured result and a kept output path live in `details`, as pi's own bash tool keeps
        // `fullOutputPath` there.
        if (params.structured !== undefined) {
          return {
            content: [{ type: 'text', text: JSON.stringify(params.structured) }],
            details: { structured: params.structured },
          };
        }
        const value = String(params.text ?? '');
        if (params.keptAt === undefined) return text(value);
        const fullOutputPath = join(location(), String(params.keptAt));
        await writeFile(fullOutputPath, value);
        return { content: [{ type: 'text', text: value }], details: { fullOutputPath } };
      },
    }),
  ];
}

/** Gates the `gate` tool waits on; the kit opens them by name. */
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
