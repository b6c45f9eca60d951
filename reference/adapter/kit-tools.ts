import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool, ToolOutput } from '../tools/tool.js';

/**
 * The deterministic tools the conformance kit's scenarios call. Each leaves a side effect in the
 * session location (a line in a log file), so a replayed execution is visible.
 */
export function kitTools(gates: GateBoard): Tool[] {
  return [
    {
      name: 'echo',
      description: 'Appends `text` as a line to echo.log in the working directory and returns it.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      async execute(input, { location }) {
        const text = String(input.text ?? '');
        await appendFile(join(location, 'echo.log'), `${text}\n`);
        return text;
      },
    },
    {
      name: 'fail',
      description: 'Fails with `message`.',
      parameters: { type: 'object', properties: { message: { type: 'string' } } },
      async execute(input) {
        throw new Error(String(input.message ?? 'failed'));
      },
    },
    {
      name: 'gate',
      description: 'Appends `name` to gate.log, then waits until the gate called `name` is opened.',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      async execute(input, { location, signal }) {
        const name = String(input.name);
        await appendFile(join(location, 'gate.log'), `${name}\n`);
        await gates.pass(name, signal);
        return `gate ${name} opened`;
      },
    },
    {
      name: 'produce',
      description:
        'Returns `text`, or only the structured result `structured`. With `keptAt`, first keeps the text in ' +
        'that file of the working directory and names it as the complete output. With `gate`, first waits as ' +
        'the gate tool does.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, structured: {}, keptAt: { type: 'string' }, gate: { type: 'string' } },
      },
      async execute(input, { location, signal }) {
        if (input.gate !== undefined) {
          await appendFile(join(location, 'gate.log'), `${String(input.gate)}\n`);
          await gates.pass(String(input.gate), signal);
        }
        if (input.structured !== undefined) return { structured: input.structured };
        const text = String(input.text ?? '');
        if (input.keptAt === undefined) return text;
        const outputPath = join(location, String(input.keptAt));
        await writeFile(outputPath, text);
        return { text, outputPath } satisfies ToolOutput;
      },
    },
  ];
}

/**
 * A tool the kit contributes to one location under a name it chooses: calling it says it ran, or,
 * given an answer, returns that structured result under the output schema it declares.
 */
export function contributedTool(name: string, answer?: { outputSchema: object; structured: unknown }): Tool {
  const parameters = { type: 'object', properties: {} };
  if (!answer) return { name, description: `Says that ${name} ran.`, parameters, execute: async () => `${name} ran` };
  return {
    name,
    description: `Answers with a structured result.`,
    parameters,
    outputSchema: answer.outputSchema,
    execute: async () => ({ structured: answer.structured }),
  };
}

/** Gates the `gate` tool waits on; the kit opens them by name. */
export class GateBoard {
  private readonly waiting = new Map<string, () => void>();
  private readonly opened = new Set<string>();
  private readonly watchers = new Map<string, (() => void)[]>();

  pass(name: string, signal: AbortSignal): Promise<void> {
    if (this.opened.has(name)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(name);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(name, () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      for (const notify of this.watchers.get(name) ?? []) notify();
      this.watchers.delete(name);
    });
  }

  open(name: string): void {
    this.opened.add(name);
    this.waiting.get(name)?.();
    this.waiting.delete(name);
  }

  /** Resolves once a tool is blocked on the gate. */
  blocked(name: string): Promise<void> {
    if (this.waiting.has(name)) return Promise.resolve();
    return new Promise((resolve) => this.watchers.set(name, [...(this.watchers.get(name) ?? []), resolve]));
  }
}
