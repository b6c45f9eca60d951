import { CAPABILITIES, capabilityOfCommand, isCapability } from './capabilities.js';
import type { RuntimeDescription } from './protocol.js';

/**
 * The table in an adapter's README, under `## What the adapter drives`, that says for every
 * protocol command and optional capability how the adapter reaches it: `through` the runtime's own
 * interface, `emulated:` by the adapter, `absent in <version>:` from the runtime, or `not wired:`
 * (the runtime has an interface the adapter does not use yet). A reader of a verdict learns from
 * it whether an absence is the runtime's or the adapter's; the kit checks it against the adapter's
 * handshake and the commands it answered `unsupported`.
 */
export const CAPABILITY_TABLE_HEADING = '## What the adapter drives';

export type Reach = 'through' | 'emulated' | 'absent' | 'not wired';

export interface CapabilityRow {
  name: string;
  reach: Reach;
  /** The whole cell, for a problem to quote. */
  how: string;
  /** Whether the cell also names a case the adapter refuses (`; not wired ...` or `; absent in ...`). */
  refusesSome: boolean;
  line: number;
}

/** How an absence of the runtime's own opens: a table row, and an adapter's `unsupported` reason. */
export const ABSENT_IN = /^absent in [^:]+:/;

const ROW = /^\| `([a-z][a-z0-9.-]*)` \| (.+) \|$/;
const REACH: [RegExp, Reach][] = [
  [/^through\b/, 'through'],
  [/^emulated:/, 'emulated'],
  [ABSENT_IN, 'absent'],
  [/^not wired:/, 'not wired'],
];
const REFUSED_CASE = /; (?:not wired|absent in [^:]+)\b/;
const ABSENT_CASE = /\babsent in [^:]+:/;

export interface CapabilityTable {
  rows: CapabilityRow[];
  problems: string[];
}

/** The table's rows, and what in it does not follow its form; `file` names it in problems. */
export function readCapabilityTable(markdown: string, file: string): CapabilityTable {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === CAPABILITY_TABLE_HEADING);
  if (start < 0) return { rows: [], problems: [`${file}: no section "${CAPABILITY_TABLE_HEADING}"`] };
  const table: CapabilityTable = { rows: [], problems: [] };
  for (let i = start + 1; i < lines.length && !lines[i]!.startsWith('## '); i += 1) {
    const line = lines[i]!;
    if (!line.startsWith('| `')) continue;
    const row = ROW.exec(line);
    const reach = row && REACH.find(([pattern]) => pattern.test(row[2]!))?.[1];
    if (!row || !reach) {
      table.problems.push(
        `${file}:${i + 1}: a row reads "| \`<name>\` | through …, emulated: …, absent in <version>: … or not wired: … |"`,
      );
      continue;
    }
    table.rows.push({ name: row[1]!, reach, how: row[2]!, refusesSome: REFUSED_CASE.test(row[2]!), line: i + 1 });
  }
  return table;
}

/**
 * Where the table and the adapter disagree: a command (of no optional capability), a part of one
 * that `commands` names (the parts rules are about), or a capability with no row or two; a row for a name the protocol does not know and the adapter does not emulate;
 * a capability declared but written absent, or written reached but not declared; an emulated name
 * not written `emulated:`, or an `emulated:` row the handshake does not list; a name the handshake
 * calls absent that is neither emulated nor refused, or whose row does not say where the runtime
 * shows it lacks it.
 */
export function checkCapabilityTable(
  table: CapabilityTable,
  file: string,
  description: Pick<RuntimeDescription, 'capabilities' | 'emulated' | 'absent'>,
  commands: readonly string[],
): string[] {
  const problems = [...table.problems];
  const emulated = new Set(Object.keys(description.emulated ?? {}));
  // A part of a command (`prompt.admit.id`) has a row of its own unless the adapter emulates the whole command.
  const ofEmulated = (name: string) => [...emulated].some((whole) => whole !== name && name.startsWith(`${whole}.`));
  const required = [
    ...commands.filter((cmd) => cmd !== 'hello' && !capabilityOfCommand(cmd) && !ofEmulated(cmd)),
    ...CAPABILITIES,
  ];
  const rowsOf = (name: string) => table.rows.filter((row) => row.name === name);
  for (const name of required) {
    const count = rowsOf(name).length;
    if (count !== 1) problems.push(`${file}: \`${name}\` has ${count === 0 ? 'no row' : `${count} rows`}`);
  }
  const known = new Set([...required, ...emulated]);
  for (const row of table.rows) {
    const where = `${file}:${row.line}: \`${row.name}\``;
    if (!known.has(row.name)) problems.push(`${where} is no protocol command or capability the table lists`);
    if (isCapability(row.name)) {
      const declared = description.capabilities.includes(row.name);
      const reached = row.reach === 'through' || row.reach === 'emulated';
      if (declared && !reached) problems.push(`${where} is declared in the handshake but written ${row.reach}`);
      if (!declared && reached) problems.push(`${where} is written ${row.reach} but the handshake does not declare it`);
    }
    if (row.reach === 'emulated' && !emulated.has(row.name))
      problems.push(`${where} is written emulated but the handshake's emulated list does not name it`);
  }
  for (const name of emulated) {
    if (!rowsOf(name).some((row) => row.reach === 'emulated'))
      problems.push(`${file}: \`${name}\` is in the handshake's emulated list but its row is not written emulated:`);
  }
  for (const name of description.absent ?? []) {
    if (!emulated.has(name) && !rowsOf(name).some((row) => row.reach === 'absent'))
      problems.push(`${file}: \`${name}\` is in the handshake's absent list but neither emulated nor written absent`);
    else if (!rowsOf(name).some((row) => ABSENT_CASE.test(row.how)))
      problems.push(
        `${file}: \`${name}\` is in the handshake's absent list but its row says no "absent in <version>:"`,
      );
  }
  return problems;
}

/**
 * A command the adapter answered `unsupported` in the run whose row says the adapter reaches it
 * without naming a refused case: the table claims more than the adapter does.
 */
export function checkUnsupported(table: CapabilityTable, file: string, refused: ReadonlySet<string>): string[] {
  return [...refused].flatMap((cmd) => {
    const name = capabilityOfCommand(cmd) ?? cmd;
    const row = table.rows.find((r) => r.name === name);
    if (!row || row.reach === 'absent' || row.reach === 'not wired' || row.refusesSome) return [];
    return [
      `${file}:${row.line}: the adapter answered \`${cmd}\` unsupported, but \`${name}\` is written ${row.reach} with no refused case ("; not wired …" or "; absent in …")`,
    ];
  });
}

/** The commands a run's results show the adapter answered `unsupported` (harness/report/outcome.ts words them). */
export function commandsAnsweredUnsupported(messages: readonly string[]): Set<string> {
  const refused = new Set<string>();
  const pattern =
    /(?:not implemented: |needs )([a-z][a-z0-9.-]*) (?:\(|to set up or to look, which the runtime does not offer \()the runtime answered unsupported/g;
  for (const message of messages) for (const match of message.matchAll(pattern)) refused.add(match[1]!);
  return refused;
}
