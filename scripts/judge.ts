import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { kitPath } from '../harness/kit-root.js';
import { readKnownFailures } from '../harness/baseline/known-failures.js';
import { staleQuotes } from '../harness/baseline/stale-entries.js';
import { KitInputError } from '../harness/input-error.js';
import { formatMarkdown } from '../harness/report/markdown.js';
import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { judge, type ScenarioVerdict, type Verdict } from '../harness/report/verdict.js';
import { lintKit } from '../cli/commands/lint/lint.js';
import { ExitCode } from '../cli/exit-codes.js';
import {
  checkUnsupported,
  commandsAnsweredUnsupported,
  readCapabilityTable,
} from '../harness/protocol/capability-table.js';
import { stableIds } from '../harness/suite/suite-index.js';
import { everyJudgement, writeFieldComparison } from './compare.js';
import { replaceFile } from './replace-file.js';
import {
  dialectEnv,
  judgedDialects,
  judgementTags,
  kitRun,
  namedDialect,
  readJudgeSettings,
} from './judge-settings.js';
import type { ProviderDialectName } from '../harness/protocol/protocol.js';
import { timeBreakdown } from '../harness/report/time-breakdown.js';
import { temporaryEntries, temporaryLeftovers } from './temporary-leftovers.js';
import {
  judgedRuntime,
  judgementFolder,
  judgementName,
  runtimeReportPage,
  runtimesTable,
  withRuntimesTable,
  type ResultsDocument,
} from '../harness/report/runtime-report.js';

/**
 * `npm run judge:<runtime>`: installs the runtime's adapter folder, runs the whole suite against
 * it, writes reports/<runtime>/{results.json,summary.md,junit.xml}, gates on the committed
 * baseline, and regenerates the runtime's REPORT.md and the README's "Runtimes judged" table.
 *
 * A runtime judged in several dialects (judge.json `dialects`) is judged in each in turn, one
 * judgement per dialect (`tsx scripts/judge.ts <runtime> <dialect>` judges one), each with its
 * reports, REPORT.md and judged.json in a folder of its dialect (`judgementFolder`), against the
 * one baseline, whose entries may hold in some dialects only.
 *
 * `tsx scripts/judge.ts <runtime> [<dialect>] --report` only regenerates the report pages from the
 * results JSON already in reports/.
 */
const [runtime = '', ...rest] = process.argv.slice(2);
if (!runtime || !/^[a-z0-9-]+$/.test(runtime)) {
  process.stderr.write('usage: tsx scripts/judge.ts <runtime> [<dialect>]   (a folder under adapters/)\n');
  process.exit(2);
}
const folder = kitPath('adapters', runtime);
const settings = readJudgeSettings(runtime);
const dialects = judgedDialects(settings);
const asked = rest.find((arg) => arg !== '--report');
if (asked !== undefined && !(dialects as string[]).includes(asked)) {
  process.stderr.write(`${runtime} is judged in ${dialects.join(', ')}, not ${asked}\n`);
  process.exit(2);
}
if (asked === undefined && dialects.length > 1) {
  // One judgement per dialect, each in a process of its own, in turn; the first that fails sets the exit.
  const judged = [];
  for (const one of dialects) judged.push({ dialect: one, ...(await judgeInDialect(one)) });
  // A log read by its tail ends with the dialects that failed and why, not with the last one's pages.
  for (const { dialect, status, why } of judged.filter((one) => one.status !== 0))
    process.stdout.write(
      `✖ ${runtime}: judged in ${dialect}, exit ${status}${why.length > 0 ? `:\n${why.map((line) => `  ${line}`).join('\n')}` : ''}\n`,
    );
  process.exit(judged.find((one) => one.status !== 0)?.status ?? 0);
}

/** One dialect's judgement in a process of its own, its output passed on; its exit and closing `✖` lines. */
function judgeInDialect(dialect: string): Promise<{ status: number; why: string[] }> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, runtime, dialect, ...rest], {
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  const why: string[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    why.push(...lines.filter((line) => line.startsWith(`✖ ${runtime}`)));
  });
  return new Promise((done) => child.on('close', (code) => done({ status: code ?? 1, why })));
}
const dialect = (asked ?? dialects[0]!) as ProviderDialectName;
const judgement = { runtime, dialect: namedDialect(settings, dialect) };
const tags = judgementTags(settings, dialect);
const named = judgementName(judgement);
const out = kitPath(judgementFolder(judgement));
const reports = kitPath(judgementFolder(judgement).replace(/^adapters/, 'reports'));
const baseline = join(folder, 'known-failures.yaml');
mkdirSync(reports, { recursive: true });

/** Every scenario's ID: a baseline entry of a scenario this judgement does not run (another dialect's) still names one. */
const suite = lintKit();
const suiteIds = new Set(suite.flatMap(stableIds));

if (rest.includes('--report')) {
  publish(JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as ResultsDocument);
  process.exit(0);
}

// A baseline that does not read is said in one line before anything runs: every shard would refuse it.
let knownFailures: ReturnType<typeof readKnownFailures> | undefined;
try {
  knownFailures = existsSync(baseline) ? readKnownFailures(baseline, suiteIds, dialect) : undefined;
} catch (error) {
  if (!(error instanceof KitInputError)) throw error;
  process.stderr.write(`✖ ${runtime}: ${error.message}\n`);
  process.exit(2);
}
// A reason quoting a step its scenario moved or dropped describes a check no run shows any more.
const staleReasons = knownFailures ? staleQuotes(knownFailures, suite) : [];
if (staleReasons.length > 0) {
  for (const problem of staleReasons) process.stdout.write(`✖ ${runtime}: ${problem}\n`);
  process.exit(2);
}

installAdapter(folder);
const started = Date.now();
const temporaryBefore = temporaryEntries();
// A runtime that cannot be driven, or whose kept process carries one scenario into the next, is
// said in a few seconds, before any scenario is judged.
// The README's table of how the adapter reaches each command is checked against its handshake.
const adapterReadme = join('adapters', runtime, 'README.md');
// A runtime not driven once on a busy machine (a start or answer past its allowance) is tried once
// more; a failed check, or a second failure, stops the judge.
let smoked = await runKit(['--capability-table', adapterReadme], 'smoke');
if (smoked === ExitCode.RuntimeNotDriven) {
  process.stdout.write(`! ${named}: kit smoke could not drive the runtime (exit ${smoked}): trying once more\n`);
  smoked = await runKit(['--capability-table', adapterReadme], 'smoke');
}
if (smoked !== 0) {
  process.stdout.write(`✖ ${named}: kit smoke failed (exit ${smoked}), so no scenario was judged\n`);
  process.exit(smoked);
}
const shards = settings.shards ?? 1;
const statuses = await Promise.all(Array.from({ length: shards }, (_, k) => runShard(k + 1)));
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
process.stdout.write(`judged ${named} in ${minutes} min${shards > 1 ? ` (${shards} shards in parallel)` : ''}\n`);

const shardResults = Array.from({ length: shards }, (_, k) => shardFile(k + 1, 'results', 'json'));
const missing = shardResults.filter((file) => !existsSync(file));
if (missing.length > 0) {
  process.stderr.write(`the run wrote no ${missing.join(', ')}\n`);
  process.exit(1);
}
let results = shardResults.flatMap((file, k) => {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as ResultsDocument).scenarios;
  } catch (error) {
    process.stderr.write(
      `${file} cannot be read (${(error as Error).message}); its run ended with exit ${statuses[k]}\n`,
    );
    return process.exit(statuses[k] || 1);
  }
});
let verdict = judge(results, knownFailures);
// A runtime's timing varies from run to run: an outcome the baseline does not expect is run once
// more, alone, and fails the judge only if it comes again. Both runs are named below. Timing
// touches a scenario or a few; more unexpected outcomes than that are a change, not run again.
const RUN_AGAIN_AT_MOST = 5;
const firstUnexpected = unexpectedIn(verdict);
const ranAgain = firstUnexpected.length > 0 && firstUnexpected.length <= RUN_AGAIN_AT_MOST;
if (ranAgain) {
  const again = await runAgain(firstUnexpected.map((s) => s.id));
  const againIds = new Set(again.map((r) => r.id));
  results = [...results.filter((r) => !againIds.has(r.id)), ...again];
  verdict = judge(results, knownFailures);
}
const unexpected = unexpectedIn(verdict);
const leftovers = processesLeft(join(folder, 'node_modules'));
const leftFiles = temporaryLeftovers(temporaryBefore);
const overclaimed = checkUnsupported(
  readCapabilityTable(readFileSync(kitPath(adapterReadme), 'utf8'), adapterReadme),
  adapterReadme,
  commandsAnsweredUnsupported(results.flatMap((r) => [r.message ?? '', r.reason ?? ''])),
);
writeMergedReports(results, verdict, ranAgain);
process.stdout.write(`${timeBreakdown(results).join('\n')}\n`);
publish({ scenarios: results });
// The last lines say why a judge failed: a log shown only by its tail still names the scenarios.
for (const s of firstUnexpected) {
  const still = unexpected.find((u) => u.id === s.id);
  process.stdout.write(
    still
      ? `✖ ${named} ${s.id}: ${standingText(still)}${ranAgain ? ', on two runs' : ''}\n`
      : `! ${named} ${s.id}: ${standingText(s)} on the first run, as the baseline expects when run again\n`,
  );
}
statuses.forEach((status, k) => {
  if (status !== 0 && firstUnexpected.length === 0)
    process.stdout.write(`✖ ${named}: shard ${k + 1} exited with code ${status}\n`);
});
if (leftovers.length > 0)
  process.stdout.write(`✖ ${runtime}: processes left running from ${folder}/node_modules: ${leftovers.join(', ')}\n`);
if (leftFiles) process.stdout.write(`✖ ${runtime}: ${leftFiles}\n`);
for (const problem of overclaimed) process.stdout.write(`✖ ${runtime}: ${problem}\n`);
process.exit(leftovers.length > 0 || leftFiles || overclaimed.length > 0 ? 1 : exitCode());

/**
 * A shard's exit for its outcomes (1, or 4 for an errored scenario) gives way to the verdict after
 * the second run; a usage, internal or interrupted exit stands.
 */
function exitCode(): number {
  const failedShard = statuses.find((status) => status !== 0);
  if (!ranAgain) return failedShard ?? 0;
  const standing = statuses.find((status) => ![0, 1, 4].includes(status));
  return standing ?? (unexpected.length > 0 ? (failedShard ?? 1) : 0);
}

function unexpectedIn(v: Verdict): ScenarioVerdict[] {
  return v.scenarios.filter((s) => s.standing === 'unexpected-fail' || s.standing === 'unexpected-pass');
}

function standingText(s: ScenarioVerdict): string {
  if (s.standing === 'unexpected-pass') return 'passed, though the baseline lists it';
  return s.mismatch ?? `${s.outcome}, and the baseline does not list it`;
}

/** The scenarios (or outlines) named, run once more in one process; their results. */
async function runAgain(ids: string[]): Promise<ScenarioResult[]> {
  const selection = join(reports, 'run-again-selection.json');
  const file = join(reports, 'run-again.json');
  writeFileSync(selection, JSON.stringify({ scenarios: ids.map((id) => ({ id, status: 'failed' })) }));
  process.stdout.write(`running again what the baseline did not expect: ${ids.join(', ')}\n`);
  await runKit(['--rerun', selection, '--results', file, ...baselineArgs()]);
  rmSync(selection, { force: true });
  if (!existsSync(file)) return [];
  const again = (JSON.parse(readFileSync(file, 'utf8')) as ResultsDocument).scenarios;
  rmSync(file, { force: true });
  return again;
}

/** The reports of shard k of a sharded run; an unsharded run writes the merged names directly. */
function shardFile(k: number, name: string, extension: string): string {
  return join(reports, shards > 1 ? `${name}-${k}.${extension}` : `${name}.${extension}`);
}

/**
 * Part k of the suite (all of it when unsharded). A black box's scenarios mostly wait on its
 * server (start-up, provider turns, idleness polls), so parallel shards shorten the run.
 */
function runShard(k: number): Promise<number> {
  return runKit([
    ...(shards > 1 ? ['--shard', `${k}/${shards}`] : []),
    ...(tags ? ['--tags', tags] : []),
    '--results',
    shardFile(k, 'results', 'json'),
    '--markdown',
    shardFile(k, 'summary', 'md'),
    '--junit',
    shardFile(k, 'junit', 'xml'),
    ...baselineArgs(),
  ]);
}

function baselineArgs(): string[] {
  return existsSync(baseline) ? ['--baseline', baseline] : [];
}

/** `kit run` (or another kit command) against the runtime's adapter with the options given; its exit code. */
function runKit(options: string[], command: 'run' | 'smoke' = 'run'): Promise<number> {
  const child = spawn(process.execPath, [...kitRun(settings, command), ...options], {
    cwd: kitPath(),
    stdio: 'inherit',
    env: dialectEnv(dialect),
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

/**
 * A sharded run's results JSON and markdown summary, judged as one run against the baseline; an
 * unsharded run's too when some of it ran again.
 */
function writeMergedReports(scenarios: ScenarioResult[], verdict: Verdict, ranAgain: boolean): void {
  if (shards === 1 && !ranAgain) return;
  const name = settings.adapter;
  writeFileSync(
    join(reports, 'results.json'),
    `${JSON.stringify({ runtime: name, passed: verdict.passed, coverage: verdict.coverage, scenarios }, null, 2)}\n`,
  );
  writeFileSync(join(reports, 'summary.md'), formatMarkdown(scenarios, name, verdict));
}

/** `npm ci` when the folder was never installed or its lockfile changed since. */
function installAdapter(dir: string): void {
  const installed = join(dir, 'node_modules', '.package-lock.json');
  const lock = join(dir, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  const command = settings.install ?? 'npm ci';
  process.stdout.write(`${command} in ${dir}\n`);
  const pinned = readFileSync(lock, 'utf8');
  const install = spawnSync('npm', [command.split(' ')[1]!, '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
  if (readFileSync(lock, 'utf8') !== pinned) {
    writeFileSync(lock, pinned);
    process.stderr.write(`${command} changed ${lock}: the adapter's pins and its lockfile disagree\n`);
    process.exit(1);
  }
}

function publish(document: ResultsDocument): void {
  const manifest = JSON.parse(readFileSync(join(folder, 'node_modules', settings.package, 'package.json'), 'utf8')) as {
    version: string;
  };
  const reasons = existsSync(baseline) ? readKnownFailures(baseline, suiteIds, dialect).entries : new Map();
  const judged = {
    ...judgedRuntime(runtime, manifest.version, new Date().toISOString().slice(0, 10), document, reasons),
    ...(judgement.dialect && { dialect: judgement.dialect }),
  };
  mkdirSync(out, { recursive: true });
  replaceFile(join(out, 'judged.json'), `${JSON.stringify(judged, null, 2)}\n`);
  replaceFile(join(out, 'REPORT.md'), runtimeReportPage(judged, document, reasons));
  const readme = kitPath('README.md');
  replaceFile(readme, withRuntimesTable(readFileSync(readme, 'utf8'), runtimesTable(everyJudgement())));
  writeFieldComparison();
  const { passed, failed, notImplemented, errored, notJudged, notApplicable } = judged.counts;
  process.stdout.write(
    `${named} ${judged.version}: rules passed ${passed}, failed ${failed}, not implemented ${notImplemented}, errored ${errored}, not judged ${notJudged}, not applicable ${notApplicable}\n`,
  );
}

/** A process killed at the run's end may take a moment to be reaped: look again for up to 5 s. */
function processesLeft(installDir: string): string[] {
  for (let attempt = 0; ; attempt += 1) {
    const running = processesRunning(installDir);
    if (running.length === 0 || attempt === 10) return running;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
}

/** Processes whose executable lies in the adapter's install: none may outlive the run. */
function processesRunning(installDir: string): string[] {
  const root = resolve(installDir);
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return readlinkSync(`/proc/${entry}/exe`).startsWith(root) ? [entry] : [];
    } catch {
      return [];
    }
  });
}
