import { defineParameterType } from '@cucumber/cucumber';
import { join } from 'node:path';
import { producedText } from '../../harness/means/shell-commands.js';
import type {
  CrashPoint,
  Delivery,
  ErrorCode,
  Failure,
  FaultToolOutputWritesRequest,
  HistoryMessage,
  PromptReceipt,
} from '../../harness/protocol/protocol.js';
import { pdfDocument, pngImage } from './media-files.js';
import { compactionSizes } from './compaction-sizes.js';
import { escapeRegExp } from './text.js';
import { toolCall } from './tool-calls.js';
import { besideManagedOutputDirectory } from './workspaces.js';
import type { KitWorld } from './world.js';
import { NAMED_REQUESTS, type Placement, type RequestText } from './requests.js';

/**
 * The domain's closed vocabularies as scenarios write them, each declared once. A vocabulary the
 * protocol defines is typed against it: a word added to or dropped from the protocol fails the
 * type check here, not a scenario.
 */

type ToolStatus = Extract<HistoryMessage, { role: 'tool' }>['status'];
type PermissionRule = 'allow' | 'deny' | 'ask';

const DELIVERIES: Record<Delivery, true> = { steer: true, queue: true };
const ERROR_CODES: Record<ErrorCode, true> = {
  'invalid-input': true,
  conflict: true,
  'not-found': true,
  unsupported: true,
  busy: true,
};
const PROMPT_STATES: Record<PromptReceipt['state'], true> = { pending: true, promoted: true };
const TOOL_STATUSES: Record<ToolStatus, true> = { running: true, success: true, error: true, interrupted: true };
const FAILURE_CODES: Record<Failure['code'], true> = {
  'turn-limit': true,
  'provider-error': true,
  'stream-cut': true,
  'context-unavailable': true,
  'context-invalid': true,
  'compaction-failed': true,
  'context-overflow': true,
  'doom-loop': true,
};
const PERMISSION_RULES: Record<PermissionRule, true> = { allow: true, deny: true, ask: true };

/** How scenarios name the durable writes a runtime can be made to crash right after. */
const CRASH_POINTS: Record<string, CrashPoint> = {
  'an admission': 'admission',
  'a promotion': 'promotion',
  'a system message': 'system-message',
  "a tool's output file": 'tool-output-file',
  'the start of a compaction': 'compaction-start',
};

const LINE_ENDINGS: Record<string, string> = { LF: '\n', CRLF: '\r\n' };

/** How a scenario makes a kind of durable write behave (`fault.tool-output-writes`'s modes). */
export type WriteMode = FaultToolOutputWritesRequest['mode'];
const WRITE_MODES: Record<string, WriteMode> = {
  fail: 'failing',
  'work again': 'working',
  'hang once complete': 'holding',
};

/** A count of numbered lines, or a size taken from the runtime's own tool output limit. */
export type NumberedLines = number | 'over' | 'over-lines' | 'within';
const SIZED_LINES: Record<string, NumberedLines> = {
  'numbered lines over every part of the tool output limit': 'over',
  "numbered lines twice the tool output limit's lines": 'over-lines',
  'numbered lines well within the tool output limit': 'within',
};

/** Longest first, so that no word matches as the prefix of another. */
const alternatives = (words: string[]) =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
const oneOf = (words: object) => new RegExp(alternatives(Object.keys(words)));
const quotedOneOf = (words: object) => new RegExp(`"(${alternatives(Object.keys(words))})"`);

/** A word of a vocabulary, typed as it: the regular expression admits no other. */
function vocabulary<T extends string>(name: string, words: Record<T, unknown>, quoted = false): void {
  defineParameterType({
    name,
    regexp: quoted ? quotedOneOf(words) : oneOf(words),
    transformer: (word: string) => word as T,
    useForSnippets: false,
  });
}

/** A word that stands for a value: `pruned` for true, say. */
function mapping<T>(name: string, words: Record<string, T>): void {
  defineParameterType({
    name,
    regexp: oneOf(words),
    transformer: (word: string) => words[word] as T,
    useForSnippets: false,
  });
}

vocabulary('delivery', DELIVERIES);
vocabulary('prompt-state', PROMPT_STATES);
vocabulary('tool-status', TOOL_STATUSES);
vocabulary('failure-code', FAILURE_CODES, true);
vocabulary('error-code', ERROR_CODES, true);
vocabulary('permission-rule', PERMISSION_RULES);
vocabulary('source-state', { unavailable: true, absent: true });
vocabulary('budget-switch', { auto: true, prune: true });
vocabulary('message-role', { user: true, assistant: true });
vocabulary('prompt-command', { admission: true, submission: true });
mapping('crash-point', CRASH_POINTS);
mapping('line-ending', LINE_ENDINGS);
mapping('permission-decision', { approves: true, declines: false });
mapping('mention', { mentions: true, omits: false });
mapping('on-off', { on: true, off: false });
mapping('pruning-mark', { pruned: true, unpruned: false });
mapping('write-mode', WRITE_MODES);
/** A kit tool a scenario calls with its one input, and that input's name. */
export interface OneInputTool {
  name: string;
  input: string;
}
mapping<OneInputTool>('one-input-tool', {
  echo: { name: 'echo', input: 'text' },
  read: { name: 'read', input: 'path' },
  fail: { name: 'fail', input: 'message' },
});
mapping('names', { names: true, 'does not name': false });
mapping('advertises', { advertises: true, 'does not advertise': false });
vocabulary('output-tool', { produce: true, fail: true });
/** What a tool result may carry beside its text: an image, or a file of another kind (a PDF). */
export type MediaKind = 'image' | 'file';
vocabulary<MediaKind>('media-kind', { image: true, file: true });

/** `40 numbered lines`, or numbered lines sized from the runtime's own limit (`... over every part of ...`). */
defineParameterType({
  name: 'numbered-lines',
  regexp: new RegExp(`\\d+ numbered lines|${alternatives(Object.keys(SIZED_LINES))}`),
  transformer: (words: string): NumberedLines => SIZED_LINES[words] ?? Number.parseInt(words, 10),
  useForSnippets: false,
});

/** A tool output limit: `10 lines and 2000 bytes`, or `the runtime's own tool output limit`. */
export type OutputLimit = { lines: number; bytes: number } | 'own';
defineParameterType({
  name: 'output-limit',
  regexp: /(\d+) lines and (\d+) bytes|the runtime's own tool output limit/,
  transformer: (lines: string | undefined, bytes: string | undefined): OutputLimit =>
    lines === undefined ? 'own' : { lines: Number(lines), bytes: Number(bytes) },
  useForSnippets: false,
});

/**
 * `request 3`, `the last request` (the newest one when the step runs), `the summary request` or
 * `the request after the summary request` (what the runtime sent once its summary came back).
 */
defineParameterType({
  name: 'request',
  regexp: /request \d+|the last request|the request after the summary request|the summary request/,
  transformer: (words: string) => NAMED_REQUESTS[words] ?? Number(words.slice('request '.length)),
  useForSnippets: false,
});

/** `the baseline of request 2`, `the last system message of the last request`, read by `textOf`. */
defineParameterType({
  name: 'request-text',
  regexp: /(the system field|the baseline|the last system message) of (request \d+|the last request)/,
  transformer: (part: string, words: string): RequestText => ({
    part: part as RequestText['part'],
    n: NAMED_REQUESTS[words] ?? Number(words.slice('request '.length)),
  }),
  useForSnippets: false,
});

/**
 * A text a step expects: `"continue"` as a seed fixes it (in single quotes if it holds double
 * ones), or `the declared text "name"`, the text of that name the runtime declared in its handshake.
 */
defineParameterType({
  name: 'text',
  regexp: /"([^"]*)"|'([^']*)'|the declared text "([^"]*)"/,
  transformer(this: KitWorld, double?: string, single?: string, name?: string): string {
    return double ?? single ?? this.declaredText(name!);
  },
  useForSnippets: false,
});

/** A length of prose: `160000 characters of prose`, or the long reply `compactionSizes` gives the runtime. */
defineParameterType({
  name: 'prose',
  regexp: /(?:a|the) long reply|(\d+) characters of prose/,
  transformer(this: KitWorld, length: string | undefined): number {
    return length === undefined ? compactionSizes(this.driver.description).longReply : Number(length);
  },
  useForSnippets: false,
});

/** What a request's conversation may mention: a text, or the output of a tool call as the model first read it. */
export interface Mentioned {
  text: string;
  what: string;
}
defineParameterType({
  name: 'mentioned',
  regexp: /"([^"]*)"|the output of call "([^"]*)"/,
  transformer(this: KitWorld, text: string | undefined, id: string | undefined): Mentioned {
    if (text !== undefined) return { text, what: `"${text}"` };
    const result = this.provider.requests.flatMap(({ messages }) => messages).find((m) => m.toolCallId === id);
    if (!result) throw new Error(`no request carries the result of call ${id}`);
    if (result.text === '') throw new Error(`the output of call ${id} is empty: nothing to look for`);
    return { text: result.text, what: `the output of call ${id}` };
  },
  useForSnippets: false,
});

/**
 * Where a read goes by absolute path: a call's complete output file, a file of a workspace, or one
 * in the directory beside the managed output directory whose name extends its name.
 */
defineParameterType({
  name: 'read-path',
  regexp:
    /the complete output of call "([^"]*)"|the absolute path of "([^"]*)" (?:in the workspace "([^"]*)"|beside the managed output directory)/,
  async transformer(this: KitWorld, call: string | undefined, file: string, workspace: string | undefined) {
    if (call !== undefined) return (await toolCall(this, call)).outputPath;
    return join(workspace === undefined ? await besideManagedOutputDirectory(this) : this.workspace(workspace), file);
  },
  useForSnippets: false,
});

/**
 * What a file a scenario plants holds: `says "text"` (`, ending with a newline` as editors save
 * it: trailing whitespace a runtime must neither trim nor add to), `has 40 numbered lines` (`line 1`
 * to `line 40`, each ending in a newline), `has the bytes "00 ff"`, `is a PNG image of 200 by 200
 * pixels` (of noise, about three bytes a pixel) or `is a one-page PDF`.
 */
defineParameterType({
  name: 'file-content',
  regexp:
    /says "([^"]*)"(?:(, ending with a newline)|, a blank line, then "([^"]*)")?|has (\d+) numbered lines|has the bytes "([^"]*)"|is a PNG image of (\d+) by (\d+) pixels|is a one-page PDF/,
  transformer(
    text?: string,
    newline?: string,
    paragraph?: string,
    lines?: string,
    hex?: string,
    width?: string,
    height?: string,
  ): string | Buffer {
    if (paragraph !== undefined) return `${text}\n\n${paragraph}\n`;
    if (text !== undefined) return newline ? `${text}\n` : text;
    if (lines !== undefined) return `${producedText({ kind: 'numbered', count: Number(lines), suffix: '' })}\n`;
    if (hex !== undefined) return Buffer.from(hex.replace(/\s/g, ''), 'hex');
    if (width !== undefined) return pngImage(Number(width), Number(height));
    return pdfDocument('A brief of one page');
  },
  useForSnippets: false,
});

/** A source of the epoch's snapshot: by its key, or `that source`, the one a step before found. */
defineParameterType({
  name: 'snapshot-source',
  regexp: /"([^"]*)"|that source/,
  transformer(this: KitWorld, key: string | undefined): string {
    const found = key ?? this.snapshotSource;
    if (found === undefined) throw new Error('no snapshot source was found before');
    return found;
  },
  useForSnippets: false,
});

defineParameterType({
  name: 'next-offset',
  regexp: /none|\d+/,
  transformer: (word: string) => (word === 'none' ? null : Number(word)),
  useForSnippets: false,
});

/** Where a boundary's telling is looked for: `after` the promoted input, or `beside` it (either side). */
defineParameterType({
  name: 'placement',
  regexp: /after|beside/,
  transformer: (word: string): Placement => word as Placement,
  useForSnippets: false,
});
