import { Given, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { textTurn, toolCall, toolCallsTurn } from '../../harness/provider/turns.js';
import { webSearchContent, webSearchResults } from '../../harness/provider/wire/anthropic-messages.js';
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
    if (reply !== null) {
      this.provider.enqueue({ turn: textTurn(reply, 3, extras) });
      return;
    }
    // Every tool means can express a gate.
    const calls = [this.means.call(toolCall(`call_gate_${gate}`, 'gate', { name: gate }))!];
    this.provider.enqueue({ turn: toolCallsTurn(calls, extras) });
  },
);

Then(
  'request {int} replays the web search call for {string} and its {int} results of {int} characters, under one ID',
  function (this: KitWorld, n: number, query: string, results: number, size: number) {
    const messages = request(this, n).messages;
    const calls = messages.flatMap((m) => (m.providerToolCall ? [m.providerToolCall] : []));
    const replayed = messages.flatMap((m) => (m.providerToolResult ? [m.providerToolResult] : []));
    expect(calls.map((call) => ({ ...call, input: JSON.parse(call.input) }))).to.deep.equal([
      { id: 'srvtoolu_kit', name: 'web_search', input: { query } },
    ]);
    expect(replayed).to.deep.equal([
      { toolUseId: 'srvtoolu_kit', content: JSON.stringify(webSearchResults(webSearch(query, results, size))) },
    ]);
    const at = (predicate: (m: (typeof messages)[number]) => boolean) => messages.findIndex(predicate);
    expect(
      at((m) => m.providerToolCall !== undefined),
      'the call before its result',
    ).to.be.below(at((m) => m.providerToolResult !== undefined));
  },
);

Then(
  'request {int} replays the {int} web search results of {int} characters for {string} exactly',
  function (this: KitWorld, n: number, results: number, size: number, query: string) {
    const replayed = request(this, n).messages.flatMap((m) => (m.providerToolResult ? [m.providerToolResult] : []));
    expect(replayed).to.deep.equal([
      { toolUseId: 'srvtoolu_kit', content: JSON.stringify(webSearchResults(webSearch(query, results, size))) },
    ]);
  },
);

/**
 * TOO-12 on the messages API: the hosted blocks a request replays are the blocks the provider
 * sent, whole, provider fields the runtime may not know included. A prompt-caching mark the runtime
 * adds to a block (`cache_control`) is its own request field, not the provider's record.
 */
Then(
  'request {int} replays the web search blocks for {string} and its {int} results of {int} characters as the provider sent them',
  function (this: KitWorld, n: number, query: string, results: number, size: number) {
    const { messages } = request(this, n).body as { messages: { role: string; content: unknown }[] };
    const hosted = messages
      .flatMap(({ role, content }) => (role === 'assistant' && Array.isArray(content) ? content : []))
      .filter((block: { type?: string }) => block.type === 'server_tool_use' || block.type === 'web_search_tool_result')
      .map(({ cache_control: _, ...block }: Record<string, unknown>) => block);
    expect(hosted, 'the hosted blocks replayed').to.deep.equal(webSearchContent(webSearch(query, results, size)));
  },
);
