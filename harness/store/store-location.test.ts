import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeFile } from './store-location.js';
import { KitInputError } from '../input-error.js';

/** A run's kept directory as `kit run` leaves it: one folder per scenario, each with its store below. */
function keptRun(...scenarios: string[]): string {
  const run = mkdtempSync(join(tmpdir(), 'kit-run-'));
  for (const scenario of scenarios) {
    mkdirSync(join(run, scenario, 'workspaces', '.store'), { recursive: true });
    writeFileSync(join(run, scenario, 'workspaces', '.store', 'runtime.sqlite'), '');
  }
  return run;
}

test("a scenario's kept directory leads to the store below it, as does a run's that keeps one scenario", (t) => {
  const run = keptRun('kit-Promotion1-40-abc');
  t.after(() => rmSync(run, { recursive: true, force: true }));
  const store = join(run, 'kit-Promotion1-40-abc', 'workspaces', '.store', 'runtime.sqlite');
  assert.equal(storeFile(join(run, 'kit-Promotion1-40-abc')), store);
  assert.equal(storeFile(run), store);
  assert.equal(storeFile(join(run, 'kit-Promotion1-40-abc', 'workspaces', '.store')), store);
  assert.equal(storeFile(store), store);
});

test("a scenario's workspaces, and a session's location in them, lead to the store beside it", (t) => {
  const run = keptRun('kit-Promotion1-40-abc');
  t.after(() => rmSync(run, { recursive: true, force: true }));
  const workspaces = join(run, 'kit-Promotion1-40-abc', 'workspaces');
  mkdirSync(join(workspaces, 's1'));
  const store = join(workspaces, '.store', 'runtime.sqlite');
  assert.equal(storeFile(workspaces), store);
  assert.equal(storeFile(join(workspaces, 's1')), store);
});

test("another runtime's kept state is named as no reference store, from wherever it is reached", (t) => {
  const run = mkdtempSync(join(tmpdir(), 'kit-run-'));
  t.after(() => rmSync(run, { recursive: true, force: true }));
  const workspaces = join(run, 'kit-A1-3-x', 'workspaces');
  mkdirSync(join(workspaces, '.store'), { recursive: true });
  mkdirSync(join(workspaces, 's1'));
  for (const path of [run, join(run, 'kit-A1-3-x'), workspaces, join(workspaces, 's1')])
    assert.throws(
      () => storeFile(path),
      (error: unknown) => error instanceof KitInputError && /\.store: is no reference store/.test(error.message),
    );
});

test("a run's directory that keeps several scenarios asks for one, naming them", (t) => {
  const run = keptRun('kit-A1-3-x', 'kit-B1-7-y');
  t.after(() => rmSync(run, { recursive: true, force: true }));
  assert.throws(
    () => storeFile(run),
    (error: unknown) =>
      error instanceof KitInputError &&
      /keeps the directories of 2 scenarios: name one \(.*kit-A1-3-x, .*kit-B1-7-y\)/.test(error.message),
  );
});
