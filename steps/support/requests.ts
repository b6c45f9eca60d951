import type { CapturedRequest } from '../../harness/provider/captured-request.js';
import { requestRows, type Row } from './rows.js';
import { withoutDateParagraphs } from './text.js';
import type { KitWorld } from './world.js';

/** What `{request}` reads for "the last request": the newest request when the step runs. */
export const LAST_REQUEST = 0;
/** What `{request}` reads for "the summary request": the first one the provider tells for a summary request. */
export const SUMMARY_REQUEST = -1;
/** What `{request}` reads for "the request after the summary request": the one the runtime sent once its summary came back. */
export const AFTER_SUMMARY_REQUEST = -2;

/** The requests a step names in words rather than by number, each by the words. */
export const NAMED_REQUESTS: Readonly<Record<string, number>> = {
  'the last request': LAST_REQUEST,
  'the summary request': SUMMARY_REQUEST,
  'the request after the summary request': AFTER_SUMMARY_REQUEST,
};

/** How a message names request `n`: by its number, or as the step named it. */
export const requestLabel = (n: number): string =>
  Object.entries(NAMED_REQUESTS).find(([, named]) => named === n)?.[0] ?? `request ${n}`;

/**
 * The provider's `n`th request (from 1), its newest, its first summary request or the one after
 * that; a failure of the step reading it is shown on it.
 */
export function request(world: KitWorld, n: number): CapturedRequest {
  const index =
    n === LAST_REQUEST
      ? world.provider.requests.length
      : n === SUMMARY_REQUEST
        ? summaryIndex(world)
        : n === AFTER_SUMMARY_REQUEST
          ? summaryIndex(world) + 1
          : n;
  const found = world.provider.requests[index - 1];
  if (!found) throw new Error(`the provider received ${world.provider.requests.length} requests, not ${n || 'any'}`);
  world.examinedRequest = index;
  return found;
}

/**
 * Whether request `n` is one the runtime sent for itself rather than a turn of the conversation:
 * its last message is a user message, not a tool's result, with no line that is a prompt the
 * scenario admitted (a compaction's request, say). A whole line, not a part of one: a short prompt
 * ("one") is part of many words.
 */
export function sentForItself(world: KitWorld, n: number): boolean {
  const last = world.provider.requests[n - 1]?.messages.at(-1);
  if (last?.role !== 'user' || last.toolCallId !== undefined) return false;
  const framing = world.driver.description.texts['prompt.steer-framing'];
  const row = { role: 'user' as const, content: last.text };
  const texts = (framing ? unframedSteers(row, framing) : [row]).map((one) => one.content);
  return !texts.some((text) => text.split('\n').some((line) => world.promptsAdmitted.has(line.trim())));
}

/**
 * The first request that holds the compaction prompt the runtime declared; without one, the first
 * that the scenario's scripted summary answered, as answers then go in order.
 */
function summaryIndex(world: KitWorld): number {
  const { summaryRequest, requests, summariesAnswered } = world.provider;
  const at = summaryRequest ? requests.findIndex(summaryRequest) + 1 : (summariesAnswered[0] ?? 0);
  if (at > 0) return at;
  throw new Error(
    summaryRequest
      ? `none of the ${requests.length} requests asked for a summary`
      : `none of the ${requests.length} requests took the scripted summary`,
  );
}

/** The conversation as the model saw it after the baseline, Mid-Conversation System Messages included. */
export function conversation(world: KitWorld, n: number): Row[] {
  const fallback = world.systemFallback();
  const framing = world.driver.description.texts['prompt.steer-framing'];
  return request(world, n)
    .messages.flatMap((message) => requestRows(message, fallback))
    .flatMap((row) =>
      (row.role === 'user' || row.role === 'system') && framing ? unframedSteers(row, framing) : [row],
    );
}

/**
 * A message read without the runtime's declared framing of steered prompts: each framed prompt is a
 * user message of its own, whether the runtime sent it in a user message or as a note of its own
 * (a system message), and what stands before the first one keeps its role.
 */
function unframedSteers(row: Row, framing: string): Row[] {
  const [opening = '', closing = ''] = framing.split('{text}');
  if (opening === '' || !row.content.includes(opening)) return [row];
  const [before, ...framed] = row.content.split(opening);
  // A framed prompt may be followed by the line break before the next one's framing.
  const prompts = framed.map((part) =>
    closing && part.trimEnd().endsWith(closing) ? part.trimEnd().slice(0, -closing.length) : part,
  );
  return [
    ...(before!.trim() === '' ? [] : [{ role: row.role, content: before! }]),
    ...prompts.map((content) => ({ role: 'user' as const, content })),
  ];
}

/** The baseline of request `n` as one text: its system field, without a declared preamble block (`request.preamble`). */
export function baselineOf(world: KitWorld, n: number): string {
  const preamble = world.driver.description.texts['request.preamble'];
  return request(world, n)
    .baseline.filter((part) => preamble === undefined || !part.startsWith(preamble))
    .join('\n\n');
}

/**
 * The context a runtime sends at the head of the conversation instead of in the system field (a
 * user message of reminders ahead of the first prompt): the rows before the first prompt the
 * scenario admitted, an answer or a provider reply (a summary). Where the baseline stands is
 * EPO-01's to judge, on the system field; what it holds is judged wherever the runtime put it.
 */
function leadingContext(world: KitWorld, n: number): string[] {
  const rows = conversation(world, n);
  const prompt = (content: string) => {
    const trimmed = content.trim();
    return world.promptsAdmitted.has(trimmed) || world.promptsAdmitted.has(trimmed.split('\n').at(-1)!.trim());
  };
  const end = rows.findIndex(
    (row) =>
      row.role === 'assistant' ||
      row.role === 'tool' ||
      prompt(row.content) ||
      world.provider.replies.some((reply) => row.content.includes(reply)),
  );
  return rows.slice(0, end < 0 ? rows.length : end).map((row) => row.content);
}

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

/**
 * A text of request `n` that a step reads: its system field, its baseline (the system field and
 * the context the runtime leads the conversation with), or its last system message after the baseline.
 */
export interface RequestText {
  part: 'the system field' | 'the baseline' | 'the last system message';
  n: number;
}

export function textOf(world: KitWorld, { part, n }: RequestText): string {
  if (part === 'the system field') return baselineOf(world, n);
  if (part === 'the baseline') return [baselineOf(world, n), ...leadingContext(world, n)].join('\n\n');
  return lastSystemMessage(world, n);
}

export function lastSystemMessage(world: KitWorld, n: number): string {
  const found = systemMessages(world, n).at(-1);
  if (found === undefined) throw new Error(`${requestLabel(n)} carries no system message after its baseline`);
  return found;
}

/**
 * Where a step looks for what a boundary told: `after` the promoted input only (where MCS-01 puts
 * it), or `beside` it, on either side (a rule about what is told, not where).
 */
export type Placement = 'after' | 'beside';

/**
 * What the model is told, by meaning: runtimes word and place context changes their own way.
 * What request `n` tells at the boundary where the user input `input` was promoted, that input's
 * own text left out: what follows it (appended to its turn, then the messages after it), and
 * `beside` it also what stands before it since the last answer (a message of its own, or text its
 * turn opens with) that no earlier request carried and that is no reply of the provider's.
 */
export function toldAfter(world: KitWorld, n: number, input: string, placement: Placement = 'after'): string[] {
  const rows = conversation(world, n);
  const at = rows.findLastIndex((row) => row.role === 'user' && row.content.startsWith(input));
  const within =
    at < 0 && placement === 'beside'
      ? rows.findLastIndex((row) => row.role === 'user' && row.content.includes(input))
      : at;
  if (within < 0) throw new Error(`${requestLabel(n)} has no user message "${input}"`);
  const turn = rows[within]!.content;
  const start = turn.lastIndexOf(input);
  const after = [turn.slice(start + input.length), ...rows.slice(within + 1).map((row) => row.content)];
  const opening = turn
    .slice(0, start)
    .replace(/<\/?[\w-]+>/g, '')
    .trim();
  const told =
    placement === 'after' ? after : [...after, ...toldBefore(world, rows, within), ...(opening ? [opening] : [])];
  // A runtime may stamp each turn with the date (and time): that tells the date rule's checks
  // something, and the others nothing.
  if (world.rules.includes(DATE_RULE)) return told;
  return told.flatMap((message, i) => {
    const left = withoutDateParagraphs(message);
    return i > 0 && left.trim() === '' && message.trim() !== '' ? [] : [left];
  });
}

/** The rule about telling the model the host's date (MCS-07), whose checks read a date as told. */
const DATE_RULE = 'MCS-07';

/**
 * The conversation of request `n` as a check of its messages row by row reads it: a system message
 * holding a date alone (a runtime's stamp before each prompt) is the date rule's matter, read only
 * where a scenario checks that rule.
 */
export function conversationRows(world: KitWorld, n: number): Row[] {
  const rows = conversation(world, n);
  if (world.rules.includes(DATE_RULE)) return rows;
  return rows.filter(
    (row) => row.role !== 'system' || row.content.trim() === '' || withoutDateParagraphs(row.content).trim() !== '',
  );
}

/**
 * The messages since the last answer before row `at` that no earlier request carried there and
 * that hold no provider reply. What an earlier request carried is the part of this conversation it
 * began with, row for row: the same text told again at a later place is told again. An earlier
 * attempt at the same input (one that failed and is sent again) is the same boundary: what it
 * carried before the input is still this boundary's telling.
 */
function toldBefore(world: KitWorld, rows: Row[], at: number): string[] {
  let from = at;
  while (from > 0 && rows[from - 1]!.role !== 'assistant' && rows[from - 1]!.role !== 'tool') from -= 1;
  const index = world.examinedRequest ?? world.provider.requests.length;
  const fallback = world.systemFallback();
  const input = rows[at]!.content;
  const carried = Math.max(
    0,
    ...world.provider.requests
      .slice(0, index - 1)
      .map((sent) => sent.messages.flatMap((message) => requestRows(message, fallback)))
      .filter((sentRows) => !sentRows.some((row) => row.role === 'user' && row.content === input))
      .map((sentRows) => {
        let same = 0;
        while (same < sentRows.length && same < rows.length && sentRows[same]!.content === rows[same]!.content)
          same += 1;
        return same;
      }),
  );
  return rows
    .slice(Math.max(from, carried), at)
    .map((row) => row.content)
    .filter((content) => !world.provider.replies.some((reply) => content.includes(reply)));
}

/** What request `n` tells after `input`, for a check that something is told: nothing at all there leaves it nothing to check. */
export function somethingToldAfter(
  world: KitWorld,
  n: number,
  input: string,
  placement: Placement = 'after',
): string[] {
  const told = toldAfter(world, n, input, placement);
  if (told.every((message) => message.trim() === ''))
    throw new Error(`${requestLabel(n)} tells the model nothing ${placement} "${input}"`);
  return told;
}
