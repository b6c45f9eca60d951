import { Document, Lexer, LineCounter, YAMLMap, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { KitInputError } from '../input-error.js';
import { displayPath, readInputText } from '../input/input-file.js';
import type { Outcome } from '../report/outcome.js';

/**
 * A baseline: the scenarios a runtime is known to fail, keyed by stable ID (scenario-id.ts: a
 * scenario's `@id:`, an outline's for all its rows, or one example row's), each with its class and
 * the reason it is accepted for now.
 *
 *     known-failures:
 *       inb-admission-4:
 *         class: deviation
 *         reason: INB-02: a retried admit with message ID m1 got a second receipt (inbox rows 1 and 2)
 *
 * `deviation`: the runtime breaks the rule (the scenario fails); `not-implemented`: it lacks the
 * command the rule needs (it answers `unsupported`). A scenario that errored is never listed: it
 * says nothing about the rule. Each reason is its entry's own: two entries never share one.
 *
 * `intermittent: true` marks a deviation the runtime shows only on some runs, as a race in the
 * runtime between its own timers and the kit's observation (WPT's `expected: [PASS, FAIL]`): a
 * pass is then expected too, and the reason must say when it fails. Its reason starts with the
 * rules the failure is charged to, which a run that passed it cannot tell.
 *
 * `dialects: [openai-responses]` limits an entry to the runs in those provider dialects, for a
 * runtime judged in several whose outcome differs by dialect; an entry without it holds in every
 * dialect. A baseline read for a run in another dialect leaves the entry out. A scenario that
 * fails differently by dialect has one reason per dialect, each a paragraph of its own:
 * "In openai-chat, CMP-10: ... In anthropic-messages and openai-responses, CMP-11: ...". Read for
 * a run, the entry holds that run's paragraph alone (so its rules are checked against the failing
 * check), or is left out where no paragraph names the dialect.
 */
export interface KnownFailures {
  file: string;
  entries: Map<string, KnownFailure>;
}

export const FAILURE_CLASSES = ['deviation', 'not-implemented'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

export interface KnownFailure {
  class: FailureClass;
  reason: string;
  /** The failure shows on some runs only; a pass is expected too. */
  intermittent?: boolean;
  /** The provider dialects whose runs show it; every dialect when absent. */
  dialects?: string[];
}

/** The scenario outcome a class of known failure expects. */
export const EXPECTED_OUTCOME = { deviation: 'failed', 'not-implemented': 'not implemented' } as const satisfies Record<
  FailureClass,
  Outcome
>;

const FIELDS = ['class', 'reason', 'intermittent', 'dialects'];

const TOP = 'known-failures';

/** A baseline lists a few hundred scenarios at most (some 50 KiB); a larger file would take long to parse. */
const MAX_BASELINE_BYTES = 256 * 2 ** 10;
/** Every scenario and example row of the suite listed would be some 8,000. */
const MAX_BASELINE_TOKENS = 20_000;

/**
 * Reads a baseline, naming the file and line of anything malformed or not in the suite; with
 * `dialect`, only the entries that hold in that provider dialect.
 */
export function readKnownFailures(path: string, suiteIds: ReadonlySet<string>, dialect?: string): KnownFailures {
  const file = displayPath(path);
  const lineCounter = new LineCounter();
  const text = readInputText(path, MAX_BASELINE_BYTES);
  // The parser takes its time over each token: a dense flow list of 256 KiB would take seconds.
  let tokens = 0;
  for (const _ of new Lexer().lex(text)) {
    if (++tokens > MAX_BASELINE_TOKENS)
      throw new KitInputError(
        file,
        `holds more than ${MAX_BASELINE_TOKENS} YAML tokens: a baseline lists entries, some 25 tokens each`,
      );
  }
  const document = parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
  });
  const at = (node: Node | null | undefined, offset = 0) =>
    `${file}:${lineCounter.linePos(node?.range?.[0] ?? offset).line}`;
  // A tag the kit does not resolve, or a directive, would make the file mean something else elsewhere.
  const [syntax] = [...document.errors, ...document.warnings];
  if (syntax) throw new KitInputError(at(null, syntax.pos[0]), syntax.message.split('\n')[0]!);
  if (document.directives?.yaml.explicit || Object.keys(document.directives?.tags ?? {}).length > 1) {
    throw new KitInputError(at(null), 'directives (%YAML, %TAG) are not accepted in a baseline');
  }
  const root = document.contents;
  const value = isMap(root) && root.has(TOP) ? root.get(TOP, true) : undefined;
  // `known-failures:` with nothing under it is an empty baseline.
  const entries = isScalar(value) && value.value === null ? new YAMLMap() : value;
  if (!isMap(root) || root.items.length !== 1 || !isMap(entries)) {
    throw new KitInputError(at(root), `expected one mapping, "${TOP}:", of scenario IDs to entries`);
  }
  const known = new Map<string, KnownFailure>();
  const byReason = new Map<string, string>();
  for (const { key, value } of entries.items) {
    const id = isScalar(key) ? String(key.value) : '';
    const where = at(key as Node);
    if (!suiteIds.has(id)) throw new KitInputError(where, `${TOP}.${id}: no scenario or example row has this ID`);
    if (!isMap(value)) throw new KitInputError(where, `${TOP}.${id}: expected an entry with a class and a reason`);
    for (const field of value.items) {
      const name = isScalar(field.key) ? String(field.key.value) : '';
      if (!FIELDS.includes(name))
        throw new KitInputError(
          at(field.key as Node),
          `${TOP}.${id}.${name}: is not a known field (an entry has a class, a reason and may be intermittent or name its dialects)`,
        );
    }
    const kind = value.get('class');
    if (!(FAILURE_CLASSES as readonly unknown[]).includes(kind)) {
      throw new KitInputError(
        at(value),
        `${TOP}.${id}.class: ${kind === undefined ? 'is required' : `"${String(kind)}" is not a class`}: ${FAILURE_CLASSES.join(' or ')}`,
      );
    }
    const reason = value.get('reason');
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw new KitInputError(at(value), `${TOP}.${id}.reason: is required: say why this failure is accepted`);
    }
    const same = byReason.get(reason.trim());
    if (same !== undefined) {
      throw new KitInputError(
        at(value),
        `${TOP}.${id}.reason: is the reason of ${same} too: give each entry the evidence of its own failure`,
      );
    }
    const intermittent = value.get('intermittent');
    if (intermittent !== undefined && intermittent !== true) {
      throw new KitInputError(at(value), `${TOP}.${id}.intermittent: is true or left out`);
    }
    if (intermittent && kind !== 'deviation') {
      throw new KitInputError(at(value), `${TOP}.${id}.intermittent: only a deviation can show on some runs only`);
    }
    if (intermittent && chargedRules(reason).length === 0) {
      throw new KitInputError(
        at(value),
        `${TOP}.${id}.reason: an intermittent entry's reason starts with the rules its failure is charged to ("RUN-01: ...")`,
      );
    }
    const dialects = value.get('dialects');
    const named = isSeq(dialects) ? dialects.items.map((item) => (isScalar(item) ? item.value : undefined)) : [];
    if (dialects !== undefined && (named.length === 0 || named.some((name) => typeof name !== 'string' || !name))) {
      throw new KitInputError(at(value), `${TOP}.${id}.dialects: is a list of provider dialects, or left out`);
    }
    byReason.set(reason.trim(), id);
    if (dialect !== undefined && dialects !== undefined && !named.includes(dialect)) continue;
    const reasonHere = dialect === undefined ? reason : reasonInDialect(reason, dialect);
    if (reasonHere === undefined) continue;
    known.set(id, {
      class: kind as FailureClass,
      reason: reasonHere,
      ...(intermittent ? { intermittent } : {}),
      ...(dialects !== undefined ? { dialects: named as string[] } : {}),
    });
  }
  return { file, entries: known };
}

/** The start of a reason's paragraph for some dialects: "In openai-chat and openai-responses, ". */
const DIALECT_PARAGRAPH = /(?:^|(?<=\.)\s+)In ([a-z]+(?:-[a-z]+)*(?:(?:, | and |, and )[a-z]+(?:-[a-z]+)*)*), /g;

/** A reason's paragraph for `dialect`, without its opening; the whole reason where it has none. */
export function reasonInDialect(reason: string, dialect: string): string | undefined {
  const starts = [...reason.matchAll(DIALECT_PARAGRAPH)];
  if (starts.length === 0 || starts[0]!.index !== 0) return reason;
  const at = starts.findIndex((start) => start[1]!.split(/, and |, | and /).includes(dialect));
  if (at < 0) return undefined;
  const from = starts[at]!.index! + starts[at]![0].length;
  return reason.slice(from, starts[at + 1]?.index ?? reason.length).trim();
}

/**
 * The entry a scenario is listed under, and its key: an example row's own entry, else its
 * outline's, which names all the outline's rows.
 */
export function listedUnder(
  entries: ReadonlyMap<string, KnownFailure>,
  scenario: { id: string; outline?: string },
): { key: string; entry: KnownFailure } | undefined {
  for (const key of [scenario.id, scenario.outline]) {
    const entry = key === undefined ? undefined : entries.get(key);
    if (entry && key !== undefined) return { key, entry };
  }
  return undefined;
}

/** The rules a reason starts with: `RUN-01: ...`, `CTX-05/MCS-01 (files): ...`. */
export function chargedRules(reason: string): string[] {
  return /^\s*([A-Z]{3}-\d{2}(?:[/ ,]+[A-Z]{3}-\d{2})*)/.exec(reason)?.[1]?.match(/[A-Z]{3}-\d{2}/g) ?? [];
}

/** A failing scenario as a baseline lists it, with a line saying what it is. */
export interface BaselineEntry extends KnownFailure {
  id: string;
  comment: string;
}

/** A baseline file listing `entries`, in ID order so that rewriting it gives a small diff. */
export function formatKnownFailures(entries: BaselineEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : 1));
  const document = new Document({
    [TOP]: Object.fromEntries(
      sorted.map((entry) => [
        entry.id,
        {
          class: entry.class,
          reason: entry.reason,
          ...(entry.intermittent ? { intermittent: true } : {}),
          ...(entry.dialects ? { dialects: entry.dialects } : {}),
        },
      ]),
    ),
  });
  document.commentBefore =
    ' Scenarios this runtime is known to fail. `kit run --baseline <this file>` accepts these\n' +
    ' failures and fails the run when one of them passes: then remove its entry.';
  (document.get(TOP, true) as YAMLMap<Node>).items.forEach((pair, i) => {
    pair.key.commentBefore = ` ${sorted[i]!.comment}`;
  });
  return document.toString({ lineWidth: 0 });
}
