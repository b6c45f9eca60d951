/**
 * A runtime for the replay benchmark only: it serves the few commands a session script uses and
 * sends the model just its last WINDOW messages, as a runtime that compacts would. A replay of
 * 10,000 turns then costs what the kit does per turn, not what a growing history costs.
 */
const WINDOW = 8;
const PROTOCOL = 'session-runtime-adapter/1';

type Command = { cmd: string } & Record<string, unknown>;
type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };
interface Message {
  role: 'user' | 'assistant';
  content: string;
}

export function createAdapter(): { handle(command: Command): Promise<Reply>; terminate(): void } {
  let provider = { baseUrl: '', apiKey: '', model: '' };
  const history: Message[] = [];
  const pending: string[] = [];
  let drained = Promise.resolve();
  let admitted = 0;

  async function drain(): Promise<void> {
    for (let text = pending.shift(); text !== undefined; text = pending.shift()) {
      history.push({ role: 'user', content: text });
      const response = await fetch(`${provider.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${provider.apiKey}` },
        body: JSON.stringify({ model: provider.model, stream: true, messages: history.slice(-WINDOW) }),
      });
      history.push({ role: 'assistant', content: streamedText(await response.text()) });
      // What falls out of the window is never sent again, so it is not kept either.
      history.splice(0, history.length - WINDOW);
    }
  }

  const commands: Record<string, (command: Command) => unknown> = {
    hello: (command) => {
      provider = (command.config as { provider: typeof provider }).provider;
      return {
        protocol: PROTOCOL,
        runtime: { name: 'windowed-bench', version: '0.0.0', language: 'typescript' },
        profiles: ['core'],
        capabilities: [],
        texts: {},
      };
    },
    'session.create': (command) => ({ sessionId: String(command.id ?? 's1'), created: true }),
    'prompt.admit': (command) => {
      pending.push((command.prompt as { parts: { text: string }[] }).parts.map((part) => part.text).join('\n'));
      if (command.resume !== false) drained = drained.then(drain);
      return { messageId: String(command.id ?? `m${++admitted}`), state: 'pending', duplicate: false };
    },
    'session.run': () => {
      drained = drained.then(drain);
    },
    'session.idle': () => drained,
  };

  return {
    async handle(command) {
      const run = commands[command.cmd];
      if (!run)
        return { ok: false, error: { code: 'unsupported', message: `${command.cmd} is not part of the benchmark` } };
      return { ok: true, result: (await run(command)) ?? {} };
    },
    terminate() {},
  };
}

/** The text of a chat-completions stream: every content delta, in order. */
function streamedText(body: string): string {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '')
    .join('');
}
