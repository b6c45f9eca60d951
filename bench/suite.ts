import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { kitPath } from '../harness/kit-root.js';
import { childCpuMs } from './cpu-time.js';

/**
 * The whole suite against the reference runtime, in process and through its stdio adapter, and
 * its floor: the same Cucumber running as many scenarios of as many steps, each a no-op, from a
 * plain JavaScript step file (the kit, too, loads its steps as one prebuilt JavaScript bundle).
 */
export interface SuiteFigure {
  scenarios: number;
  steps: number;
  inProcessMs: number;
  stdioMs: number;
  floorMs: number;
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

export function measureSuite(): SuiteFigure {
  const inProcess = kit([]);
  const scenarios = count(inProcess.stdout, 'scenario');
  const steps = count(inProcess.stdout, 'step');
  // `exec`: the kit itself then reaps each adapter process, so the adapters' CPU is counted.
  const stdio = kit(['--adapter', `exec node ${kitPath('harness', 'build', 'reference-stdio.js')}`]);
  return { scenarios, steps, inProcessMs: inProcess.ms, stdioMs: stdio.ms, floorMs: noOpFloorMs(scenarios, steps) };
}

export function noOpFloorMs(scenarios: number, steps: number): number {
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
