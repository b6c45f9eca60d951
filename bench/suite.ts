import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { kitPath } from '../harness/kit-root.js';
import { childCpuMs } from './cpu-time.js';
import { median } from './median.js';

/**
 * The whole suite against the reference runtime, in process and through its stdio adapter, and
 * its floor: the same Cucumber running as many scenarios of as many steps, each a no-op, from a
 * plain JavaScript step file (the kit, too, loads its steps as one prebuilt JavaScript bundle).
 */
export interface SuiteFigure {
  scenarios: number;
  steps: number;
  /** Medians over the rounds. */
  inProcessMs: number;
  stdioMs: number;
  floorMs: number;
  /** Medians of each round's own ratios: a machine whose speed drifts between rounds moves them less. */
  inProcessRatio: number;
  stdioRatio: number;
  rounds: number;
}

const kit = (args: string[]) =>
  childCpuMs(process.execPath, [kitPath('cli', 'bin.js'), 'run', ...args], {
    cwd: kitPath(),
    env: { ...process.env, NO_COLOR: '1' },
  });

/** Cucumber's summary line, e.g. `142 scenarios (120 passed, 22 skipped)`. */
function count(output: string, noun: string): number {
  const found = new RegExp(`^(\\d+) ${noun}s? \\(`, 'm').exec(output);
  if (!found) throw new Error(`no ${noun} count in the run's output:\n${output}`);
  return Number(found[1]);
}

/** `exec`: the kit itself then reaps each adapter process, so the adapters' CPU is counted. */
const STDIO = ['--adapter', `exec node ${kitPath('harness', 'build', 'reference-stdio.js')}`];

/**
 * `rounds` rounds of the floor, the suite in process and the suite over stdio, after one rule run
 * each way: that builds whatever bundle a changed source left stale, which is not the suite's cost.
 */
export function measureSuite(rounds: number): SuiteFigure {
  kit(['--rule', 'CTX-01']);
  kit(['--rule', 'CTX-01', ...STDIO]);
  const measured = Array.from({ length: rounds }, () => {
    const inProcess = kit([]);
    const scenarios = count(inProcess.stdout, 'scenario');
    const steps = count(inProcess.stdout, 'step');
    const stdioMs = kit(STDIO).ms;
    return { scenarios, steps, inProcessMs: inProcess.ms, stdioMs, floorMs: noOpFloorMs(scenarios, steps) };
  });
  const middle = (figure: (round: (typeof measured)[number]) => number) => median(measured.map(figure));
  return {
    scenarios: measured[0]!.scenarios,
    steps: measured[0]!.steps,
    inProcessMs: middle((round) => round.inProcessMs),
    stdioMs: middle((round) => round.stdioMs),
    floorMs: middle((round) => round.floorMs),
    inProcessRatio: middle((round) => round.inProcessMs / round.floorMs),
    stdioRatio: middle((round) => round.stdioMs / round.inProcessMs),
    rounds,
  };
}

function noOpFloorMs(scenarios: number, steps: number): number {
  // Inside the kit, so the step file finds the kit's Cucumber.
  const dir = kitPath('.kit', 'bench-floor');
  mkdirSync(dir, { recursive: true });
  const perScenario = Math.max(1, Math.round(steps / scenarios));
  const scenario = (i: number) =>
    [`  Scenario: no-op ${i}`, ...Array.from({ length: perScenario }, () => '    Given nothing happens')].join('\n');
  writeFileSync(
    `${dir}/floor.feature`,
    `${['Feature: no-op', ...Array.from({ length: scenarios }, (_, i) => scenario(i))].join('\n')}\n`,
  );
  writeFileSync(
    `${dir}/noop.steps.mjs`,
    "import { Given } from '@cucumber/cucumber';\n\nGiven('nothing happens', () => {});\n",
  );
  writeFileSync(
    `${dir}/cucumber.mjs`,
    "export default { import: ['noop.steps.mjs'], paths: ['floor.feature'], format: ['summary'] };\n",
  );
  try {
    return childCpuMs(
      process.execPath,
      [kitPath('node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js'), '--config', 'cucumber.mjs'],
      { cwd: dir },
    ).ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
