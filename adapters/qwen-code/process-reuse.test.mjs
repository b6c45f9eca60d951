import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { connectAdapter } from '../../harness/adapter/adapter-client.mjs';

/**
 * The adapter keeps one `qwen --acp` process from runtime to runtime (process-reuse): the runtime
 * opened after runtime.close must keep nothing of the one before. The first runtime has global
 * instructions, a prompt and reply, and a session running as an agent that may not run the shell;
 * the second, served by the same process, must be sent none of them, and its shell must run in an
 * environment whose directories are its own. A runtime in another time zone gets another process.
 */
const adapter = join(dirname(fileURLToPath(import.meta.url)), 'adapter.mjs');
const SHELL = 'realpath "$HOME" "$TMPDIR" "$QWEN_HOME" "$QWEN_RUNTIME_DIR"';

/** An OpenAI Chat Completions provider: a prompt naming the shell gets a shell call, any other its echo. */
async function provider() {
  const bodies = [];
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = JSON.parse(raw);
      bodies.push(raw);
      const last = body.messages.at(-1);
      const text = typeof last.content === 'string' ? last.content : last.content.map((part) => part.text).join('');
      const delta =
        last.role === 'user' && text.includes('shell')
          ? {
              tool_calls: [
                {
                  index: 0,
                  id: `call_${bodies.length}`,
                  type: 'function',
                  function: { name: 'run_shell_command', arguments: JSON.stringify({ command: SHELL }) },
                },
              ],
            }
          : { content: last.role === 'tool' ? 'ran' : `reply to ${text.split('\n').at(-1)}` };
      const chunk = (choice) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: body.model, ...choice })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        chunk({ choices: [{ index: 0, delta: { role: 'assistant', ...delta }, finish_reason: null }] }) +
          chunk({
            choices: [{ index: 0, delta: {}, finish_reason: delta.tool_calls ? 'tool_calls' : 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
          }) +
          'data: [DONE]\n\n',
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { bodies, url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

/** The adapter, each command's reply required to be ok. */
function connect() {
  const { send, end } = connectAdapter(adapter);
  const sendOk = async (command) => {
    const reply = await send(command);
    assert.equal(reply.ok, true, `${command.cmd}: ${JSON.stringify(reply.error)}`);
    return reply.result;
  };
  return { send: sendOk, end };
}

test('a runtime served by the kept process keeps nothing of the one before', { timeout: 120_000 }, async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kit-qwen-reuse-')));
  const llm = await provider();
  const { send, end } = connect();
  /** A runtime's directories, its global instructions naming it. */
  const runtime = (name, extra = {}) => {
    for (const sub of ['home', 'workspace']) mkdirSync(join(dir, name, sub), { recursive: true });
    writeFileSync(join(dir, name, 'home', 'AGENTS.md'), `MARK-${name}: the global instructions of ${name}\n`);
    return {
      cmd: 'hello',
      protocol: 'session-runtime-adapter/1',
      config: {
        storeDir: join(dir, name, 'store'),
        home: join(dir, name, 'home'),
        runDir: join(dir, 'run'),
        now: '2026-01-15T10:00:00.000Z',
        instance: 0,
        provider: { dialect: 'openai-chat', baseUrl: llm.url, apiKey: 'kit', model: 'kit-model' },
        ...extra,
      },
    };
  };
  const turn = async (text) => {
    await send({ cmd: 'prompt.admit', sessionId: 's1', prompt: { parts: [{ type: 'text', text }] } });
    await send({ cmd: 'session.idle', sessionId: 's1' });
  };
  try {
    mkdirSync(join(dir, 'run'));
    await send(runtime('first'));
    await send({ cmd: 'agent.define', name: 'reviewer', tools: { run_shell_command: 'deny' } });
    await send({ cmd: 'session.create', id: 's1', location: join(dir, 'first', 'workspace') });
    await send({ cmd: 'session.select', sessionId: 's1', agent: 'reviewer' });
    await turn('first prompt');
    const { kept } = await send({ cmd: 'runtime.close' });
    assert.equal(kept.length, 1, 'the process of the first runtime is kept');

    const before = llm.bodies.length;
    await send(runtime('second'));
    assert.deepEqual(await send({ cmd: 'diagnostics' }), { diagnostics: [] }, 'no log line of the first runtime');
    await send({ cmd: 'session.create', id: 's1', location: join(dir, 'second', 'workspace') });
    await turn('second prompt: run the shell');
    const sent = llm.bodies.slice(before);
    assert.equal(sent.length, 2, 'the shell call and its answer');
    for (const body of sent) {
      assert.ok(body.includes('MARK-second'), 'its own global instructions');
      for (const earlier of ['MARK-first', 'first prompt', 'reply to first prompt'])
        assert.ok(!body.includes(earlier), `nothing of the first runtime: ${earlier}`);
    }
    // The shell ran, as the default agent lets it (the first runtime's agent denied it), in its own directories.
    const store = join(dir, 'second', 'store');
    const result = JSON.parse(sent[1]).messages.at(-1).content;
    const output = typeof result === 'string' ? result : JSON.stringify(result);
    for (const own of [join(store, 'home'), join(store, 'tmp'), join(dir, 'second', 'home'), join(store, 'runtime')])
      assert.ok(output.includes(own), `the shell's environment names ${own}: ${output}`);
    assert.ok(!output.includes(join(dir, 'first')), 'no directory of the first runtime');
    // Its debug log, whose warnings the diagnostics read, is written in its own store.
    assert.ok(readdirSync(join(store, 'runtime', 'debug')).some((name) => name.endsWith('.txt')));
    const history = await send({ cmd: 'history', sessionId: 's1' });
    assert.ok(!JSON.stringify(history).includes('first prompt'));
    const again = await send({ cmd: 'runtime.close' });
    assert.deepEqual(again.kept, kept, 'the same process served the second runtime');

    await send(runtime('third', { timeZone: 'Asia/Tokyo' }));
    await send({ cmd: 'session.create', id: 's1', location: join(dir, 'third', 'workspace') });
    await turn('third prompt');
    const third = await send({ cmd: 'runtime.close' });
    assert.notDeepEqual(third.kept, kept, 'a process of its own for a runtime in another time zone');
  } finally {
    end();
    llm.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
