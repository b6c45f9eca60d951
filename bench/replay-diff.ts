import { mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaySessionScript } from '../cli/commands/replay/replay-script.js';
import { ExitCode } from '../cli/exit-codes.js';
import { PROJECTION_FORMAT, type Projection } from '../harness/projection/projection.js';
import { kitPath } from '../harness/kit-root.js';
import { childCpuMs } from './cpu-time.js';

/**
 * What replaying a long session and `kit diff` of two long projections cost, each in a process of
 * its own (so the replay's peak memory is its own), next to a floor: plain Node reading and
 * parsing the same files.
 *
 * The replay drives bench/windowed-runtime.ts, which sends the model a bounded window of history:
 * a runtime that resends the whole history makes the requests themselves grow with the square of
 * the turns, whatever the kit does.
 */

/** What one measured process reports of itself, as the last line of its stderr. */
interface PhaseFigure {
  peakMb: number;
}

/** The phases a measured process runs; each reads its files from the command line. */
const phases: Record<string, (files: string[]) => Promise<void>> = {
  // `kit replay --out` itself, printing to the file its stdout is.
  replay: async ([script, runtime, out]) => {
    const code = await replaySessionScript({
      file: script!,
      runtime: runtime!,
      out: out!,
      full: false,
      trustBundle: false,
      timeoutScale: 1,
      validate: true,
    });
    if (code !== ExitCode.Passed) throw new Error(`the replay did not finish cleanly: exit ${code}`);
  },
};

/** The floor of reading files: plain Node reading and parsing them, start-up included. */
function parseFloorMs(files: string[]): number {
  const read = `for (const file of ${JSON.stringify(files)}) JSON.parse(require('node:fs').readFileSync(file, 'utf8'))`;
  return childCpuMs(process.execPath, ['-e', read]).ms;
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

export interface ReplayFigure {
  turns: number;
  ms: number;
  peakMb: number;
  floorMs: number;
}

/** CPU of replaying a generated session through bench/windowed-runtime.ts, a process of its own. */
export function measureReplay(turns: number): ReplayFigure {
  return inScratch((file) => {
    const script = file('script.json', generatedScript(turns));
    const runtime = kitPath('bench', 'windowed-runtime.ts');
    const printed = join(dirname(script), 'printed.txt');
    const run = childCpuMs(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--phase', 'replay', script, runtime, file('out.json', {})],
      { cwd: kitPath(), stdio: ['ignore', openSync(printed, 'w'), 'pipe'] },
    );
    if (statSync(printed).size === 0) throw new Error('the replay printed nothing');
    const { peakMb } = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as PhaseFigure;
    return { turns, ms: run.ms, peakMb, floorMs: parseFloorMs([script]) };
  });
}

export interface DiffFigure {
  turns: number;
  ms: number;
  floorMs: number;
}

/** CPU of `kit diff` on two generated projections that differ on their last turn. */
export function measureDiff(turns: number): DiffFigure {
  return inScratch((file) => {
    const [a, b] = [
      file('a.json', generatedProjection(turns, 'the end')),
      file('b.json', generatedProjection(turns, 'another end')),
    ];
    // Exit 1: the projections differ, as generated.
    const run = childCpuMs(
      process.execPath,
      [kitPath('cli', 'bin.js'), 'diff', a, b, '--json'],
      { cwd: kitPath() },
      [1],
    );
    return { turns, ms: run.ms, floorMs: parseFloorMs([a, b]) };
  });
}

function inScratch<T>(work: (file: (name: string, value: object) => string) => T): T {
  const dir = mkdtempSync(join(process.env.KIT_TMPDIR || tmpdir(), 'kit-bench-'));
  try {
    return work((name, value) => {
      writeFileSync(join(dir, name), JSON.stringify(value));
      return join(dir, name);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--phase');
if (at >= 0) {
  await phases[process.argv[at + 1]!]!(process.argv.slice(at + 2));
  const figure: PhaseFigure = { peakMb: Math.round(process.resourceUsage().maxRSS / 1024) };
  process.stderr.write(`${JSON.stringify(figure)}\n`);
}
