import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GATE_DIRECTORY,
  echoCommand,
  failCommand,
  gateCommand,
  produceCommand,
  produceThenGateCommand,
  producedText,
  type ProducedText,
} from './shell-commands.js';

const sh = (command: string, cwd: string) => spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8' });

function inLocation(body: (location: string) => void | Promise<void>) {
  return async () => {
    const location = mkdtempSync(join(tmpdir(), 'kit-shell-'));
    try {
      await body(location);
    } finally {
      rmSync(location, { recursive: true, force: true });
    }
  };
}

test(
  'echo prints its text exactly and appends it as a line to echo.log, quotes and all',
  inLocation((location) => {
    const text = `it's "quoted" $HOME \\n`;
    assert.equal(sh(echoCommand(text), location).stdout, text);
    sh(echoCommand('second'), location);
    assert.equal(readFileSync(join(location, 'echo.log'), 'utf8'), `${text}\nsecond\n`);
  }),
);

test(
  'fail exits non-zero with its message on stderr',
  inLocation((location) => {
    const run = sh(failCommand('no luck'), location);
    assert.deepEqual([run.status, run.stdout, run.stderr], [1, '', 'no luck\n']);
  }),
);

test(
  'produce prints exactly the text the kit expects',
  inLocation((location) => {
    const outputs: ProducedText[] = [
      { kind: 'numbered', count: 1, suffix: '' },
      { kind: 'numbered', count: 300, suffix: ' é€𝄞' },
      { kind: 'repeated', char: 'x', count: 100_000 },
      { kind: 'repeated', char: 'x', count: 5000, between: ['BEGIN', 'END'] },
      { kind: 'prose', count: 100_000 },
    ];
    for (const produced of outputs) assert.equal(sh(produceCommand(produced), location).stdout, producedText(produced));
  }),
);

/**
 * Runs `command` until it has logged the gate `name` and printed `printedFirst`, then opens the gate:
 * its output before the gate opened and at its end. A command that prints less before it waits
 * never gets its gate opened.
 */
async function throughGate(location: string, command: string, name: string, printedFirst = '') {
  const child = spawn('sh', ['-c', command], { cwd: location });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // The gate logs first; only then does the test open it, as the kit does on seeing the log.
  const logged = () =>
    existsSync(join(location, 'gate.log')) && readFileSync(join(location, 'gate.log'), 'utf8') === `${name}\n`;
  await new Promise<void>((resolve) => {
    const settle = () => {
      if (!logged() || output.length < printedFirst.length) return;
      watcher.close();
      child.stdout.off('data', settle);
      resolve();
    };
    const watcher = watch(location, settle);
    child.stdout.on('data', settle);
    settle();
  });
  const beforeOpening = output;
  mkdirSync(join(location, GATE_DIRECTORY));
  writeFileSync(join(location, GATE_DIRECTORY, name), '');
  return { status: await exited, beforeOpening, output };
}

test(
  'gate logs its name, waits for its file, then reports it opened',
  inLocation(async (location) => {
    assert.deepEqual(await throughGate(location, gateCommand('g1'), 'g1'), {
      status: 0,
      beforeOpening: '',
      output: 'gate g1 opened',
    });
  }),
);

test(
  'a produce that waits at a gate has printed its whole text before it waits, and adds nothing of the gate',
  inLocation(async (location) => {
    const produced: ProducedText = { kind: 'numbered', count: 3000, suffix: '' };
    const text = producedText(produced);
    assert.deepEqual(await throughGate(location, produceThenGateCommand(produced, 'g1'), 'g1', text), {
      status: 0,
      beforeOpening: text,
      output: text,
    });
  }),
);
