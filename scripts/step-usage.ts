// How the step vocabulary is used: the number of step definitions, those used by one step of the
// features only and those used by none, from a dry run of Cucumber (nothing runs).
// Usage: npm run step-usage [-- --list]   (--list names the definitions used once or never)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kitPath } from '../harness/kit-root.js';

interface Usage {
  pattern: string;
  uri: string;
  matches: { uri: string }[];
}

const dir = mkdtempSync(join(tmpdir(), 'kit-step-usage-'));
try {
  const out = join(dir, 'usage.json');
  const messages = join(dir, 'messages.ndjson');
  execFileSync(
    process.execPath,
    [
      kitPath('node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js'),
      '--dry-run',
      '--format',
      `usage-json:${out}`,
      '--format',
      `message:${messages}`,
    ],
    { cwd: kitPath(), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const usage = JSON.parse(readFileSync(out, 'utf8')) as Usage[];
  const once = usage.filter((step) => step.matches.length === 1);
  const never = usage.filter((step) => step.matches.length === 0);
  // One pickle per scenario, and per example of an outline.
  const scenarios = readFileSync(messages, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{"pickle":')).length;
  process.stdout.write(
    `${usage.length} step definitions serve ${scenarios} scenarios; ${once.length} are used once, ${never.length} never\n`,
  );
  if (process.argv.includes('--list'))
    for (const step of [...never, ...once])
      process.stdout.write(`${step.matches.length}  ${step.pattern}  (${step.uri})\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
