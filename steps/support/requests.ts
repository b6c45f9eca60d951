import type { CapturedRequest } from '../../harness/provider/captured-request.js';
import { requestRows, type Row } from './rows.js';
import type { KitWorld } from './world.js';

/** What `{request}` reads for "the last request": the newest request when the step runs. */
export const LAST_REQUEST = 0;
/** What `{request}` reads for "the summary request": the first one the provider tells for a summary request. */
export const SUMMARY_REQUEST = -1;

/** How a message names request `n`: by its number, or as the step named it. */
export const requestLabel = (n: number): string =>
  n === LAST_REQUEST ? 'the last request' : n === SUMMARY_REQUEST ? 'the summary request' : `request ${n}`;

/** The provider's `n`th request (from 1), its newest, or its first summary request; a failure of the step reading it is shown on it. */
export function request(world: KitWorld, n: number): CapturedRequest {
  const index = n === LAST_REQUEST ? world.provider.requests.length : n === SUMMARY_REQUEST ? summaryIndex(world) : n;
  const found = world.provider.requests[index - 1];
  if (!found) throw new Error(`the provider received ${world.provider.requests.length} requests, not ${n || 'any'}`);
  world.examinedRequest = index;
  return found;
}

function summaryIndex(world: KitWorld): number {
  const { summaryRequest, requests } = world.provider;
  if (!summaryRequest) throw new Error('the runtime declared no compaction prompt to tell its summary request by');
  const at = requests.findIndex(summaryRequest);
  if (at < 0) throw new Error(`none of the ${requests.length} requests asked for a summary`);
  return at + 1;
}

/** The conversation as the model saw it after the baseline, Mid-Conversation System Messages included. */
export function conversation(world: KitWorld, n: number): Row[] {
  const fallback = world.systemFallback();
  return request(world, n).messages.flatMap((message) => requestRows(message, fallback));
}

/** The baseline of request `n` as one text. */
export const baselineOf = (world: KitWorld, n: number) => request(world, n).baseline.join('\n\n');

/**
 * The Baseline System Context of request `n`: its baseline without the default agent's own prompt,
 * where the runtime declares that it sends one ahead of it (`texts["agent.prompt"]`; `003` assembles
 * the agent prompt per turn, apart from the System Context).
 */
export function contextBaselineOf(world: KitWorld, n: number): string {
  const text = baselineOf(world, n);
  const prompt = world.driver.description.texts['agent.prompt'];
  return prompt !== undefined && text.startsWith(prompt) ? text.slice(prompt.length).replace(/^\s+/, '') : text;
}

/** The system messages of request `n` after its baseline, in order. */
export const systemMessages = (world: KitWorld, n: number) =>
  conversation(world, n)
    .filter((row) => row.role === 'system')
    .map((row) => row.content);

/** A text of request `n` that a step reads: its baseline, or its last system message after the baseline. */
export interface RequestText {
  part: 'the baseline' | 'the last system message';
  n: number;
}

export const textOf = (world: KitWorld, { part, n }: RequestText): string =>
  part === 'the baseline' ? baselineOf(world, n) : lastSystemMessage(world, n);

export function lastSystemMessage(world: KitWorld, n: number): string {
  const found = systemMessages(world, n).at(-1);
  if (found === undefined) throw new Error(`${requestLabel(n)} carries no system message after its baseline`);
  return found;
}

/**
 * What the model is told, by meaning: runtimes word and place context changes their own way.
 * The messages of request `n` from the promoted user input `input` on, that input's own text left
 * out: a change announced at that boundary comes after the input, as a message of its own or
 * appended to the input's turn.
 */
export function toldAfter(world: KitWorld, n: number, input: string): string[] {
  const rows = conversation(world, n);
  const at = rows.findLastIndex((row) => row.role === 'user' && row.content.startsWith(input));
  if (at < 0) throw new Error(`${requestLabel(n)} has no user message "${input}"`);
  return [rows[at]!.content.slice(input.length), ...rows.slice(at + 1).map((row) => row.content)];
}

/** What request `n` tells after `input`, for a check that something is told: nothing at all there leaves it nothing to check. */
export function somethingToldAfter(world: KitWorld, n: number, input: string): string[] {
  const told = toldAfter(world, n, input);
  if (told.every((message) => message.trim() === ''))
    throw new Error(`${requestLabel(n)} tells the model nothing after "${input}"`);
  return told;
}
