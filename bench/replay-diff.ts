import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { readSessionScript } from '../harness/script/session-script.js';
import { replayScript } from '../harness/script/script-replay.js';
import { renderProjection } from '../harness/projection/render.js';
import { readProjection } from '../harness/projection/projection-file.js';
import { compareProjections } from '../harness/projection/projection-diff.js';
import { PROJECTION_FORMAT, type Projection } from '../harness/projection/projection.js';
import { kitPath } from '../harness/kit-root.js';
import { describeComparison } from '../cli/commands/diff/difference-text.js';
import { paletteFor } from '../cli/colour.js';

/**
 * What replaying a long session and diffing two long projections cost, next to a floor measured
 * in the same run: reading and parsing the same files without doing the work. Each measurement
 * runs in a fresh process, so its peak memory is its own.
 *
 * The replay drives bench/windowed-runtime.ts, which sends the model a bounded window of history:
 * a runtime that resends the whole history makes the requests themselves grow with the square of
 * the turns, whatever the kit does. The reference runtime is measured on a shorter session for scale.
 */
const TURNS = Number(process.argv[2] ?? 10_000);
const REFERENCE_TURNS = Math.min(TURNS, 300);

interface Figure {
  ms: number;
  peakMb: number;
}

/** One measurement, in this process: the phase's wall time and the process's peak memory. */
const phases: Record<string, (files: string[]) => Promise<void>> = {
  'parse-script': async ([script]) => void JSON.parse(readFileSync(script!, 'utf8')),
  replay: async ([script, runtime, out]) => {
    const outcome = await replayScript(readSessionScript(script!), { runtime: { module: runtime! }, timeoutScale: 1, validate: true });
    if (outcome.unanswered.length > 0 || outcome.stoppedAt) throw new Error(`the replay did not finish cleanly: ${JSON.stringify(outcome.stoppedAt)}`);
    let printed = 0;
    for (const line of renderProjection(outcome.projection, false)) printed += line.length;
    writeFileSync(out!, JSON.stringify(outcome.projection));
    if (printed === 0) throw new Error('nothing was printed');
  },
  'parse-projections': async ([a, b]) => void [a!, b!].map((file) => JSON.parse(readFileSync(file, 'utf8'))),
  diff: async ([a, b]) => {
    const comparison = compareProjections(readProjection(a!), readProjection(b!));
    if (comparison.equal) throw new Error('the generated projections should differ');
    describeComparison(comparison, { a: a!, b: b! }, paletteFor({ isTTY: false }, {}));
  },
};

function measure(phase: string, files: string[]): Figure {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--phase', phase, ...files], {
    cwd: kitPath(),
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (child.status !== 0) throw new Error(`${phase} failed:\n${child.stdout}${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Figure;
}

/** A session of `turns` prompts, each answered by one scripted reply, then settled. */
function generatedScript(turns: number): object {
  const timeline = Array.from({ length: turns }, (_, i) => [
    { step: 'provider-text', text: `reply ${i + 1}: ${'lorem ipsum '.repeat(4)}` },
    { step: 'prompt', text: `prompt ${i + 1}: ${'dolor sit amet '.repeat(4)}` },
    { step: 'settle' },
  ]).flat();
  return { format: 'kit-session-script/1', title: `${turns} generated turns`, timeline };
}

/** A conversation growing by a reply and a prompt each turn; `last` ends the final turn. */
function generatedProjection(turns: number, last: string): Projection {
  return {
    format: PROJECTION_FORMAT,
    script: 'generated.json',
    runtime: 'generated',
    turns: Array.from({ length: turns }, (_, i) => ({
      turn: i + 1,
      ...(i === 0 ? { baseline: ['You are a coding assistant.'], tools: ['echo', 'fail', 'gate'] } : {}),
      kept: i === 0 ? 0 : 2 * i - 1,
      added: [
        ...(i === 0 ? [] : [{ role: 'assistant', text: `reply ${i}: ${'lorem ipsum '.repeat(4)}` }]),
        { role: 'user', text: i === turns - 1 ? last : `prompt ${i + 1}: ${'dolor sit amet '.repeat(4)}` },
      ],
    })),
  };
}

function row(name: string, turns: number, work: Figure, floor: Figure): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);
  const megabytes = (mb: number) => `${mb} MB`.padStart(7);
  const perTurn = `${(work.ms / turns).toFixed(3)} ms`.padStart(10);
  return `${name.padEnd(40)}${seconds(work.ms)}${perTurn}${megabytes(work.peakMb)}   ${seconds(floor.ms)}${megabytes(floor.peakMb)}`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kit-bench-'));
  const file = (name: string, value: object) => {
    writeFileSync(join(dir, name), JSON.stringify(value));
    return join(dir, name);
  };
  const replay = (turns: number, runtime: string, label: string) => {
    const script = file(`script-${turns}.json`, generatedScript(turns));
    const module = kitPath(...runtime.split('/'));
    return row(`replay ${turns} turns, ${label}`, turns, measure('replay', [script, module, join(dir, 'out.json')]), measure('parse-script', [script]));
  };
  const diff = (turns: number) => {
    const [a, b] = [file(`a-${turns}.json`, generatedProjection(turns, 'the end')), file(`b-${turns}.json`, generatedProjection(turns, 'another end'))];
    return row(`diff two ${turns}-turn projections`, turns, measure('diff', [a, b]), measure('parse-projections', [a, b]));
  };
  try {
    process.stdout.write(
      [
        'replay and diff: each measured in a fresh process; the floor reads and parses the same files',
        `${''.padEnd(40)}${'time'.padStart(8)}${'per turn'.padStart(10)}${'peak'.padStart(7)}   ${'floor'.padStart(8)}${'peak'.padStart(7)}`,
        replay(TURNS / 2, 'bench/windowed-runtime.ts', 'windowed runtime'),
        replay(TURNS, 'bench/windowed-runtime.ts', 'windowed runtime'),
        replay(REFERENCE_TURNS, 'reference/adapter/conformance-adapter.ts', 'reference runtime'),
        diff(TURNS / 2),
        diff(TURNS),
        '',
      ].join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--phase');
if (at >= 0) {
  const start = performance.now();
  await phases[process.argv[at + 1]!]!(process.argv.slice(at + 2));
  const figure: Figure = { ms: performance.now() - start, peakMb: Math.round(process.resourceUsage().maxRSS / 1024) };
  process.stdout.write(`${JSON.stringify(figure)}\n`);
} else {
  await main();
}
