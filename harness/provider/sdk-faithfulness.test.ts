import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import { kitPath } from '../kit-root.js';
import type { CapturedRequest, DecodedRequest } from './captured-request.js';
import { FakeProvider } from './fake-provider.js';
import { serveOnLoopback } from './loopback.js';
import { loadRecording } from './recording.js';
import type { ScriptedTurn } from './scripted-turn.js';
import { dialects } from './wire/dialect.js';
import { webSearchResults } from './wire/anthropic-messages.js';

/**
 * The recordings and the wire encoders stand in for real provider traffic. Here each provider's
 * official client reads them over HTTP, as a runtime built on it would, and must understand what
 * the recording's `<name>.meaning.json` sidecar says: a frame that drifts from the real wire
 * format changes what the client makes of it, or makes the client refuse it.
 */

/** What a response means to a client: a finished reply, a refused request, or a stream cut short. */
type Meaning =
  | {
      text: string;
      toolCalls: { id: string; name: string; input: unknown }[];
      reasoning?: { text: string; signature: string };
      finish: string | null;
    }
  | { error: { status: number; type: string | null; code?: string; message: string | null } }
  /** `error`: what the provider said as it broke the stream off, where it said anything. */
  | { cut: true; text: string; error?: { type: string | null; message: string | null } };

interface OfficialClient {
  /** Sends CONVERSATION in the client's own types and returns what the client made of the answer. */
  read(baseUrl: string): Promise<Meaning>;
  /** The finish reasons the client reports for the two kinds of encoded turns. */
  finishes: { text: string; toolCalls: string };
  /** Whether the dialect carries provider-native reasoning. */
  reasoning: boolean;
  /** A recorded error, whose body an encoded error turn sends again. */
  errorRecording: string;
}

const MODEL = 'kit-model';

/** The one conversation every client sends, in the neutral form every dialect must decode it to. */
const CONVERSATION: DecodedRequest = {
  baseline: ['Be brief.'],
  messages: [
    { role: 'user', text: 'Echo hi.' },
    { role: 'assistant', text: '', toolCalls: [{ id: 'call_1', name: 'echo', input: '{"text":"hi"}' }] },
    { role: 'tool', text: 'hi', toolCallId: 'call_1' },
    { role: 'user', text: 'Say hello.' },
  ],
  tools: ['echo'],
};
const THINKING = { text: 'Echo it.', signature: 'c2lnbmVkIHRoaW5raW5n' };
const ECHO_SCHEMA = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };

const clients: Record<string, OfficialClient> = {
  'openai-chat': {
    read: readWithOpenAI,
    finishes: { text: 'stop', toolCalls: 'tool_calls' },
    reasoning: false,
    errorRecording: 'rate-limited',
  },
  'openai-responses': {
    read: readWithOpenAIResponses,
    finishes: { text: 'completed', toolCalls: 'completed' },
    reasoning: true,
    errorRecording: 'rate-limited',
  },
  'anthropic-messages': {
    read: readWithAnthropic,
    finishes: { text: 'end_turn', toolCalls: 'tool_use' },
    reasoning: true,
    errorRecording: 'overloaded',
  },
  gemini: {
    read: readWithGemini,
    finishes: { text: 'STOP', toolCalls: 'STOP' },
    reasoning: true,
    errorRecording: 'rate-limited',
  },
};

async function readWithOpenAI(baseURL: string): Promise<Meaning> {
  const client = new OpenAI({ apiKey: 'kit-key', baseURL, maxRetries: 0 });
  let streamed = '';
  try {
    const stream = client.chat.completions.stream({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Echo hi.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"text":"hi"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'hi' },
        { role: 'user', content: 'Say hello.' },
      ],
      tools: [{ type: 'function', function: { name: 'echo', description: 'Echoes text.', parameters: ECHO_SCHEMA } }],
    });
    stream.on('content', (delta) => (streamed += delta));
    const [choice] = (await stream.finalChatCompletion()).choices;
    return {
      text: choice!.message.content ?? '',
      toolCalls: (choice!.message.tool_calls ?? []).map((call) => {
        if (call.type !== 'function') throw new Error(`unexpected ${call.type} tool call`);
        return { id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) as unknown };
      }),
      finish: choice!.finish_reason,
    };
  } catch (error) {
    const refusal = openAIRefusal(error);
    if (refusal) return refusal;
    // The client's own complaint that the stream closed before any finish reason: a cut stream.
    if (error instanceof OpenAI.OpenAIError && error.message.startsWith('missing finish_reason'))
      return { cut: true, text: streamed };
    throw error;
  }
}

/** Reads an OpenAI client's refusal: the status and what the error body says. */
function openAIRefusal(error: unknown): Meaning | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return undefined;
  const { message } = (error.error ?? {}) as { message?: string };
  return {
    error: {
      status: error.status,
      type: error.type ?? null,
      ...(error.code ? { code: error.code } : {}),
      message: message ?? null,
    },
  };
}

/**
 * The Responses client keeps whatever the stream built when it ends: a response still
 * `in_progress` is a stream cut short, a `failed` one was broken off by the provider, and an
 * `incomplete` one finished early with its reason.
 */
async function readWithOpenAIResponses(baseURL: string): Promise<Meaning> {
  const client = new OpenAI({ apiKey: 'kit-key', baseURL, maxRetries: 0 });
  let streamed = '';
  try {
    const stream = client.responses.stream({
      model: MODEL,
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'Echo hi.' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: THINKING.text }],
          encrypted_content: THINKING.signature,
        },
        { type: 'function_call', call_id: 'call_1', name: 'echo', arguments: '{"text":"hi"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'hi' },
        { role: 'user', content: [{ type: 'input_text', text: 'Say hello.' }] },
      ],
      tools: [{ type: 'function', name: 'echo', description: 'Echoes text.', parameters: ECHO_SCHEMA, strict: false }],
      include: ['reasoning.encrypted_content'],
    });
    stream.on('response.output_text.delta', (event) => (streamed += event.delta));
    const response = await stream.finalResponse();
    if (response.status === 'in_progress') return { cut: true, text: streamed };
    if (response.status === 'failed') {
      return {
        cut: true,
        text: streamed,
        error: { type: response.error?.code ?? null, message: response.error?.message ?? null },
      };
    }
    const reasoning = response.output.flatMap((item) =>
      item.type === 'reasoning'
        ? [{ text: item.summary.map((part) => part.text).join(''), signature: item.encrypted_content ?? '' }]
        : [],
    );
    return {
      text: response.output_text,
      toolCalls: response.output.flatMap((item) =>
        item.type === 'function_call'
          ? [{ id: item.call_id, name: item.name, input: JSON.parse(item.arguments) as unknown }]
          : [],
      ),
      ...(reasoning[0] ? { reasoning: reasoning[0] } : {}),
      finish:
        response.status === 'incomplete'
          ? `incomplete: ${response.incomplete_details?.reason ?? 'unknown'}`
          : (response.status ?? null),
    };
  } catch (error) {
    const refusal = openAIRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
}

async function readWithAnthropic(baseUrl: string): Promise<Meaning> {
  // Anthropic's client adds /v1 itself.
  const client = new Anthropic({ apiKey: 'kit-key', baseURL: baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
  let streamed = '';
  try {
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Echo hi.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: THINKING.text, signature: THINKING.signature },
            { type: 'tool_use', id: 'call_1', name: 'echo', input: { text: 'hi' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'hi' },
            { type: 'text', text: 'Say hello.' },
          ],
        },
      ],
      tools: [{ name: 'echo', description: 'Echoes text.', input_schema: ECHO_SCHEMA }],
    });
    stream.on('text', (delta) => (streamed += delta));
    const message = await stream.finalMessage();
    const thinking = message.content.flatMap((block) =>
      block.type === 'thinking' ? [{ text: block.thinking, signature: block.signature }] : [],
    );
    return {
      text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
      toolCalls: message.content.flatMap((block) =>
        block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : [],
      ),
      ...(thinking[0] ? { reasoning: thinking[0] } : {}),
      finish: message.stop_reason,
    };
  } catch (error) {
    if (error instanceof Anthropic.APIError && error.status !== undefined) {
      return { error: { status: error.status, type: error.type, message: error.apiMessage } };
    }
    // An error event in the stream: the provider broke off a response already under way.
    if (error instanceof Anthropic.APIError) {
      return { cut: true, text: streamed, error: { type: error.type, message: error.apiMessage } };
    }
    // The client's own complaint that the stream closed before `message_stop`: a cut stream.
    if (
      error instanceof Anthropic.AnthropicError &&
      error.message.startsWith('stream ended without producing a Message')
    ) {
      return { cut: true, text: streamed };
    }
    throw error;
  }
}

/**
 * The Gemini client yields each streamed response as it comes and keeps nothing of them: the parts
 * are gathered here as a runtime on it gathers them. A stream that ends without a finish reason is
 * cut; an error frame in it makes the client throw, its message saying the status it got.
 */
async function readWithGemini(baseUrl: string): Promise<Meaning> {
  // The client adds the API version itself, beside the kit's /v1.
  const client = new GoogleGenAI({ apiKey: 'kit-key', httpOptions: { baseUrl: baseUrl.replace(/\/v1$/, '') } });
  let text = '';
  let thought = '';
  let signature: string | undefined;
  let finish: string | null = null;
  const toolCalls: { id: string; name: string; input: unknown }[] = [];
  try {
    const stream = await client.models.generateContentStream({
      model: MODEL,
      contents: [
        { role: 'user', parts: [{ text: 'Echo hi.' }] },
        {
          role: 'model',
          parts: [
            { text: THINKING.text, thought: true },
            {
              functionCall: { id: 'call_1', name: 'echo', args: { text: 'hi' } },
              thoughtSignature: THINKING.signature,
            },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_1', name: 'echo', response: { output: 'hi' } } },
            { text: 'Say hello.' },
          ],
        },
      ],
      config: {
        systemInstruction: 'Be brief.',
        tools: [
          { functionDeclarations: [{ name: 'echo', description: 'Echoes text.', parametersJsonSchema: ECHO_SCHEMA }] },
        ],
        thinkingConfig: { includeThoughts: true },
      },
    });
    for await (const chunk of stream) {
      const [candidate] = chunk.candidates ?? [];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.functionCall) {
          const { id, name, args } = part.functionCall;
          toolCalls.push({ id: id ?? '', name: name ?? '', input: args });
        } else if (part.thought) thought += part.text ?? '';
        else text += part.text ?? '';
        signature = part.thoughtSignature ?? signature;
      }
      finish = candidate?.finishReason ?? finish;
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const midway = /^got status: \S+\. /.exec(error.message);
    const body = JSON.parse(midway ? error.message.slice(midway[0].length) : error.message) as {
      error: { status?: string; message?: string };
    };
    const said = { type: body.error.status ?? null, message: body.error.message ?? null };
    return midway ? { cut: true, text, error: said } : { error: { status: error.status, ...said } };
  }
  if (finish === null) return { cut: true, text };
  const reasoning = thought || signature ? { reasoning: { text: thought, signature: signature ?? '' } } : {};
  return { text, toolCalls, ...reasoning, finish };
}

let current: FakeProvider | undefined;
let loopback: Awaited<ReturnType<typeof serveOnLoopback>>;

before(async () => {
  loopback = await serveOnLoopback(() => current);
});

after(() => loopback.close());

/** Serves one turn through the kit's fake provider on loopback to the dialect's official client. */
async function serve(dialect: string, turn: ScriptedTurn): Promise<{ meaning: Meaning; request: CapturedRequest }> {
  current = new FakeProvider(dialects[dialect]!, kitPath('recordings'), MODEL);
  current.enqueue({ turn });
  const meaning = await clients[dialect]!.read(loopback.baseUrl);
  assert.equal(current.requests.length, 1, 'requests the provider received');
  return { meaning, request: current.requests[0]! };
}

const RECORDING = /\.(sse|http)$/;
const SIDECAR = /\.meaning\.json$/;

function filesOf(dialect: string): string[] {
  return readdirSync(kitPath('recordings', dialect)).sort();
}

function recordingsOf(dialect: string): string[] {
  return filesOf(dialect)
    .filter((file) => RECORDING.test(file))
    .map((file) => file.replace(RECORDING, ''));
}

function sidecarOf(dialect: string, name: string): Meaning {
  return JSON.parse(readFileSync(kitPath('recordings', dialect, `${name}.meaning.json`), 'utf8')) as Meaning;
}

test('every dialect the kit speaks is checked against its official client', () => {
  assert.deepEqual(Object.keys(dialects).sort(), Object.keys(clients).sort());
});

test('every recording has a meaning sidecar, and every sidecar a recording', () => {
  for (const dialect of Object.keys(clients)) {
    const files = filesOf(dialect);
    const sidecars = files.filter((file) => SIDECAR.test(file)).map((file) => file.replace(SIDECAR, ''));
    assert.deepEqual(recordingsOf(dialect), sidecars, `recordings and sidecars in recordings/${dialect}`);
    assert.deepEqual(
      files.filter((file) => !RECORDING.test(file) && !SIDECAR.test(file)),
      [],
      `other files in recordings/${dialect}`,
    );
  }
});

for (const dialect of Object.keys(clients)) {
  for (const name of recordingsOf(dialect)) {
    test(`${dialect}/${name} means to the official client what its sidecar says`, async () => {
      assert.deepEqual((await serve(dialect, { kind: 'recording', name })).meaning, sidecarOf(dialect, name));
    });
  }
}

for (const [dialect, client] of Object.entries(clients)) {
  const reasoning = { text: 'A greeting calls for a short reply.', signature: 'RXFRS2tpdC1zaWduYXR1cmU=' };
  const calls = [
    { id: 'call_1', name: 'echo', input: { text: 'one' } },
    { id: 'call_2', name: 'gate', input: { name: 'g1', note: 'a "quoted" word' } },
  ];

  test(`${dialect}: an encoded text turn reads as its text, in any number of chunks`, async () => {
    const { meaning } = await serve(dialect, { kind: 'text', text: 'Hello! How can I help?', chunks: 4 });
    assert.deepEqual(meaning, { text: 'Hello! How can I help?', toolCalls: [], finish: client.finishes.text });
  });

  test(`${dialect}: an encoded text turn with reasoning carries it where the dialect can`, async () => {
    const { meaning } = await serve(dialect, { kind: 'text', text: 'Hello!', chunks: 2, reasoning });
    assert.deepEqual(meaning, {
      text: 'Hello!',
      toolCalls: [],
      ...(client.reasoning ? { reasoning } : {}),
      finish: client.finishes.text,
    });
  });

  test(`${dialect}: an encoded turn with several tool calls reads as those calls with their parsed input`, async () => {
    const { meaning } = await serve(dialect, { kind: 'tool-calls', calls });
    assert.deepEqual(meaning, { text: '', toolCalls: calls, finish: client.finishes.toolCalls });
  });

  test(`${dialect}: an encoded error turn reads as the recorded error whose body it sends`, async () => {
    const recorded = loadRecording(kitPath('recordings'), dialect, client.errorRecording);
    const { meaning } = await serve(dialect, {
      kind: 'error',
      status: recorded.status,
      body: recorded.frames.join(''),
    });
    assert.deepEqual(meaning, sidecarOf(dialect, client.errorRecording));
  });

  test(`${dialect}: the request the official client sends decodes to the neutral conversation`, async () => {
    const { request } = await serve(dialect, { kind: 'text', text: 'ok', chunks: 1 });
    const [user, assistant, ...rest] = CONVERSATION.messages;
    const expected = {
      ...CONVERSATION,
      messages: [user, client.reasoning ? { ...assistant, reasoning: THINKING } : assistant, ...rest],
    };
    assert.deepEqual({ baseline: request.baseline, messages: request.messages, tools: request.tools }, expected);
  });
}

test('anthropic-messages: an encoded web search reads as the server tool call and its exact results', async () => {
  const search = { id: 'srvtoolu_kit', query: 'kit', results: 2, resultSize: 300 };
  current = new FakeProvider(dialects['anthropic-messages']!, kitPath('recordings'), MODEL);
  current.enqueue({ turn: { kind: 'text', text: 'Found it.', chunks: 1, webSearch: search } });
  const client = new Anthropic({ apiKey: 'kit-key', baseURL: loopback.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
  const message = await client.messages
    .stream({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: 'Search.' }] })
    .finalMessage();
  const blocks = message.content.map((block) => JSON.parse(JSON.stringify(block)) as Record<string, unknown>);
  assert.deepEqual(
    blocks.map((block) => block.type),
    ['server_tool_use', 'web_search_tool_result', 'text'],
  );
  assert.deepEqual(blocks[0]!.input, { query: 'kit' });
  assert.deepEqual(blocks[1]!.content, webSearchResults(search));
});
