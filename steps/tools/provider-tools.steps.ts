import { Given, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { textTurn, toolCall, toolCallsTurn } from '../../harness/provider/turns.js';
import { webSearchContent, webSearchResults } from '../../harness/provider/wire/anthropic-messages.js';
import { NotImplemented } from '../../harness/report/outcome.js';
import type { KitWorld } from '../support/world.js';
import { request } from '../support/requests.js';

const webSearch = (query: string, results: number, resultSize: number) => ({
  id: 'srvtoolu_kit',
  query,
  results,
  resultSize,
});

/** A turn that searches the web on the provider's side, then ends in a reply or in a gate's call. */
Given(
  /^the provider searches the web for "([^"]*)", gets (\d+) results of (\d+) characters, then (?:replies "([^"]*)"|calls gate "([^"]*)")$/,
  function (this: KitWorld, query: string, results: string, size: string, reply: string | null, gate: string | null) {
    const extras = { webSearch: webSearch(query, Number(results), Number(size)) };
    this.hostedCallScripted = true;
    if (reply !== null) {
      this.provider.enqueue({ turn: textTurn(reply, 3, extras) });
      return;
    }
    // Every tool means can express a gate.
    const calls = [this.means.call(toolCall(`call_gate_${gate}`, 'gate', { name: gate }))!];
    this.provider.enqueue({ turn: toolCallsTurn(calls, extras) });
  },
);

/**
 * The fake provider sends its web search unasked. A runtime that offers the provider no tool to
 * execute (a tool definition of a type of the provider's, request 1) and keeps nothing of the search
 * in request n has no provider-executed tools: a rule about them is not implemented there.
 */
Then(
  "request {int} keeps the provider's web search, or the runtime has no tools the provider executes",
  function (this: KitWorld, n: number) {
    const kept = request(this, n).messages.some((m) => m.providerToolCall ?? m.providerToolResult);
    if (!kept && !offersHostedTools(this)) {
      throw new NotImplemented(
        'tools the provider executes',
        `request 1 offers none, and request ${n} keeps nothing of the web search the provider ran unasked`,
      );
    }
  },
);

/**
 * A result's content as a structure: `000` has the payload round-trip exactly as a structure, and
 * fixes no byte form (key order, spacing) for the request that carries it.
 */
const parsedResults = (replayed: { toolUseId: string; content: string }[]) =>
  replayed.map(({ toolUseId, content }) => ({ toolUseId, content: JSON.parse(content) as unknown }));

/** The call and its result are paired by the call's ID; no seed fixes where in the turn each stands. */
Then(
  'request {int} replays the web search call for {string} and its {int} results of {int} characters, under one ID',
  function (this: KitWorld, n: number, query: string, results: number, size: number) {
    const messages = request(this, n).messages;
    const calls = messages.flatMap((m) => (m.providerToolCall ? [m.providerToolCall] : []));
    const replayed = messages.flatMap((m) => (m.providerToolResult ? [m.providerToolResult] : []));
    expect(calls.map((call) => ({ ...call, input: JSON.parse(call.input) }))).to.deep.equal([
      { id: 'srvtoolu_kit', name: 'web_search', input: { query } },
    ]);
    expect(parsedResults(replayed)).to.deep.equal([
      { toolUseId: 'srvtoolu_kit', content: webSearchResults(webSearch(query, results, size)) },
    ]);
  },
);

Then(
  'request {int} replays the {int} web search results of {int} characters for {string} exactly',
  function (this: KitWorld, n: number, results: number, size: number, query: string) {
    const replayed = request(this, n).messages.flatMap((m) => (m.providerToolResult ? [m.providerToolResult] : []));
    expect(parsedResults(replayed)).to.deep.equal([
      { toolUseId: 'srvtoolu_kit', content: webSearchResults(webSearch(query, results, size)) },
    ]);
  },
);

/**
 * TOO-12 on the messages API: the result blocks a request replays are the blocks the provider sent,
 * whole, every field of theirs included; the call blocks keep their ID, name and input. `000` has
 * the results round-trip exactly; it says nothing of fields of the call block beyond these (the
 * messages API's `caller`), nor of where the blocks stand in the turn. A prompt-caching mark the
 * runtime adds to a block (`cache_control`) is its own request field, not the provider's record.
 */
Then(
  'request {int} replays the web search blocks for {string} and its {int} results of {int} characters as the provider sent them',
  function (this: KitWorld, n: number, query: string, results: number, size: number) {
    const { messages } = request(this, n).body as { messages: { role: string; content: unknown }[] };
    const hosted = messages
      .flatMap(({ role, content }) => (role === 'assistant' && Array.isArray(content) ? content : []))
      .map(({ cache_control: _, ...block }: Record<string, unknown>) => block);
    const [call, result] = webSearchContent(webSearch(query, results, size)) as Record<string, unknown>[];
    const calls = hosted
      .filter((block) => block.type === 'server_tool_use')
      .map(({ type, id, name, input }) => ({ type, id, name, input }));
    expect(calls, 'the hosted calls replayed').to.deep.equal([
      { type: call!.type, id: call!.id, name: call!.name, input: call!.input },
    ]);
    expect(
      hosted.filter((block) => block.type === 'web_search_tool_result'),
      'the hosted results replayed',
    ).to.deep.equal([result]);
  },
);

/** Whether request 1 offers the provider a tool to execute itself: a tool definition of a type of the provider's. */
export function offersHostedTools(world: KitWorld): boolean {
  const { tools } = request(world, 1).body as { tools?: { type?: string; name?: string }[] };
  return (tools ?? []).some(({ type }) => type !== undefined && type !== 'custom');
}
