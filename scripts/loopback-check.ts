import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kitPath } from '../harness/kit-root.js';
import { dialectEnv, judgedDialects, kitRun, readJudgeSettings } from './judge-settings.js';

/**
 * `tsx scripts/loopback-check.ts <runtime> '<tag expression>'`: runs those scenarios against the
 * runtime's adapter (adapters/<runtime>/judge.json) with every process of the run traced by
 * `strace -f -e trace=connect`, and fails when any of them opened an Internet connection that is
 * not to loopback, or asked a name server (port 53, loopback resolvers included).
 */
const [runtime = '', tags = ''] = process.argv.slice(2);
if (!/^[a-z0-9-]+$/.test(runtime) || tags === '') {
  process.stderr.write("usage: tsx scripts/loopback-check.ts <runtime> '<tag expression>'\n");
  process.exit(2);
}
const settings = readJudgeSettings(runtime);
const scratch = mkdtempSync(join(tmpdir(), 'kit-loopback-'));
const trace = join(scratch, 'connect.trace');
try {
  const run = spawnSync(
    'strace',
    ['-f', '-qq', '-e', 'trace=connect', '-o', trace, process.execPath, ...kitRun(settings), '--tags', tags],
    {
      cwd: kitPath(),
      stdio: ['ignore', 'ignore', 'inherit'],
      env: dialectEnv(judgedDialects(settings)[0]!),
    },
  );
  if (run.error) throw run.error;
  const connects = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((line) => line.includes('connect('));
  const inet = connects.flatMap((line) => {
    const v4 = /sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)/.exec(line);
    const v6 = /sin6_port=htons\((\d+)\).*inet_pton\(AF_INET6, "([^"]+)"/.exec(line);
    const match = v4 ?? v6;
    return match ? [{ port: Number(match[1]), address: match[2]!, line }] : [];
  });
  const outside = inet.filter(
    ({ port, address }) =>
      port === 53 || !(address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1'),
  );
  process.stdout.write(
    `${runtime}: ${inet.length} Internet connection attempt(s) traced (kit run exit ${run.status}), ${outside.length} not to loopback\n`,
  );
  for (const { line } of outside) process.stdout.write(`  ${line.trim()}\n`);
  if (inet.length === 0) {
    process.stderr.write('no connection was traced at all: the check saw nothing\n');
    process.exit(1);
  }
  process.exit(outside.length > 0 ? 1 : 0);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
