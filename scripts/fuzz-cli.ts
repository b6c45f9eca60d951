import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { kitPath } from '../harness/kit-root.js';
import { readRuleIndex } from '../harness/suite/suite-index.js';

/**
 * Hostile input, tried by the thousand: malformed flags, paths, files and stores handed to every
 * `kit` command, each run as a user would run it. Every one must end with exit 2 and exactly one
 * line on stderr naming the flag, path or file (and line or field) at fault, print nothing on
 * stdout, take well under a second of CPU, stay within bounded memory, and leave nothing behind:
 * no file in its temporary directory (TMPDIR and KIT_TMPDIR, the scenario root that is otherwise
 * /dev/shm), no process of its group.
 *
 *     npm run fuzz              # every case (some 1,200), a few minutes
 *     npm run fuzz -- --sample 40
 *
 * The cases are drawn with a fixed seed, so two runs try the same inputs.
 */

export interface HostileCase {
  /** What is malformed, for the report. */
  what: string;
  args: string[];
  env?: Record<string, string>;
  /** What the one error line must name: the flag, the path or the file. */
  names: string;
}

export interface Mishandling {
  case: HostileCase;
  problems: string[];
  stderr: string;
}

export interface CaseMeasure {
  wallMs: number;
  cpuMs: number;
  maxRssKb: number;
}

/** Limits every case must stay within. CPU time, not wall time: the machine may be shared. */
export const LIMITS = { cpuMs: 1000, maxRssKb: 256 * 1024, hangMs: 15_000 } as const;

const KIT = kitPath('cli', 'bin.js');
const COMMANDS = ['run', 'baseline', 'smoke', 'replay', 'diff', 'inspect', 'clean', 'lint'];
const RULES = new Set(readRuleIndex(kitPath('rules', 'index.md')));

/** Files and directories the cases read, made once below `dir`. */
function inputFiles(dir: string) {
  const at = (name: string, content: string | Uint8Array) => {
    const file = join(dir, name);
    writeFileSync(file, content);
    return file;
  };
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const bom = '\uFEFF';
  // A projection as kit replay writes it, to stand beside a malformed one in kit diff.
  const goodProjection = join(dir, 'good-projection.json');
  execFileSync(
    process.execPath,
    [KIT, 'replay', kitPath('fixtures', 'scripts', 'steer-mid-drain.json'), '--out', goodProjection],
    {
      stdio: 'ignore',
    },
  );
  const projection = JSON.parse(readFileSync(goodProjection, 'utf8'));
  const results = { scenarios: [{ id: 'inb-admission-1', status: 'failed' }] };
  const script = readFileSync(kitPath('fixtures', 'scripts', 'steer-mid-drain.json'), 'utf8');
  const baseline = 'known-failures:\n  inb-admission-1:\n    class: deviation\n    reason: "INB-01: x"\n';
  const aDirectory = join(dir, 'a-directory');
  mkdirSync(aDirectory, { recursive: true });
  const notAStore = join(dir, 'not-a-store');
  mkdirSync(notAStore, { recursive: true });
  writeFileSync(join(notAStore, 'runtime.sqlite'), 'SQLite format 3\0 but not really');
  const loop = join(dir, 'loop');
  if (!existsSync(loop)) symlinkSync(loop, loop);
  const fifo = join(dir, 'a-fifo');
  if (!existsSync(fifo)) execFileSync('mkfifo', [fifo]);
  // Malformed in the same way whatever reads them.
  const anyFile: [string, string][] = [
    ['empty', at('empty', '')],
    ['only a byte-order mark', at('bom-only', bom)],
    ['whitespace', at('blank', ' \n\t\n')],
    ['a NUL byte', at('nul', '\0')],
    ['invalid UTF-8', at('latin1', Buffer.from([0xff, 0xfe, 0x7b, 0x80, 0x7d]) as unknown as string)],
    ['UTF-16 with its mark', at('utf16', Buffer.from(`\uFEFF{"a":1}`, 'utf16le') as unknown as string)],
    ['10 MiB of one line', at('huge-line', 'x'.repeat(10 * 2 ** 20))],
    ['a directory', aDirectory],
    ['no such file', join(dir, 'missing.json')],
    ['a symlink loop', loop],
    ['a FIFO no one writes', fifo],
    ['/dev/zero', '/dev/zero'],
    ['/dev/full', '/dev/full'],
    ['/dev/urandom', '/dev/urandom'],
    ['/proc/self/mem', '/proc/self/mem'],
    ['a name too long', join(dir, 'n'.repeat(300))],
    ['a path too long', join(dir, `${'d/'.repeat(2100)}x.json`)],
  ];
  const jsonFile: [string, string][] = [
    ['JSON nested 100,000 deep', at('deep.json', deep(100_000))],
    ['JSON nested 65 deep', at('deep65.json', deep(65))],
    ['a JSON array of 2,000,000 numbers', at('huge-array.json', `[${Array(2_000_000).fill(0).join(',')}]`)],
    ['a JSON string of 20 MiB', at('huge-string.json', JSON.stringify('y'.repeat(20 * 2 ** 20)))],
    ['truncated JSON', at('truncated.json', '{"format": "kit-')],
    ['JSON null', at('null.json', 'null')],
    ['a JSON number', at('number.json', '1e400')],
    ['a JSON array', at('array.json', '[]')],
    ['an empty JSON object', at('object.json', '{}')],
    ['JSON with __proto__', at('proto.json', '{"__proto__": {"polluted": true}, "constructor": 1}')],
    ['JSON with duplicate keys', at('dup.json', '{"a": 1, "a": 2}')],
    ['JSON with a comment', at('comment.json', '// a comment\n{}')],
    ['two JSON documents', at('two.json', '{}\n{}')],
    ['YAML instead of JSON', at('yaml.json', 'a: 1\n')],
  ];
  const withBom = (name: string, text: string) => at(`bom-${name}`, bom + text);
  const yamlFile: [string, string][] = [
    [
      'a baseline with a byte-order mark and an unknown ID',
      withBom('baseline.yaml', baseline.replace(/inb-admission-1/, 'zz-1')),
    ],
    [
      'a baseline holding a huge array',
      at('huge-array.yaml', `known-failures: [${Array(120_000).fill('1').join(',')}]\n`),
    ],
    ['a baseline of 300 KiB', at('big.yaml', `# ${'x'.repeat(300 * 1024)}\n${baseline}`)],
    ['YAML nested 10,000 deep', at('deep.yaml', `known-failures: ${deep(10_000)}\n`)],
    [
      'a YAML alias bomb',
      at(
        'bomb.yaml',
        `a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\nknown-failures: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n`,
      ),
    ],
    ['a YAML tag', at('tag.yaml', 'known-failures: !!js/function "x"\n')],
    ['a YAML directive', at('directive.yaml', `%YAML 1.1\n---\n${baseline}`)],
    ['tabs for indentation', at('tabs.yaml', baseline.replace(/ {2}/g, '\t'))],
    ['a duplicate entry', at('dup.yaml', baseline + baseline.split('\n').slice(1).join('\n'))],
    ['an entry without a class', at('noclass.yaml', 'known-failures:\n  inb-admission-1:\n    reason: x\n')],
    ['a list, not a mapping', at('list.yaml', '- inb-admission-1\n')],
  ];
  return {
    goodProjection,
    results: at('results.json', JSON.stringify(results)),
    script: at('script.json', script),
    baseline: at('baseline.yaml', baseline),
    anyFile,
    jsonFile,
    yamlFile,
    withBom,
    projectionBom: withBom('projection.json', JSON.stringify(projection)),
    resultsBom: withBom('results.json', JSON.stringify({ scenarios: [{ id: 'zz-1', status: 'failed' }] })),
    scriptBom: withBom('script.json', script.replace('"format"', '"formatt"')),
    notAStore,
    aDirectory,
    fileAsParent: at('a-file', 'x'),
  };
}

/** Output paths no report can be written to. */
function badOutputs(dir: string, fileAsParent: string, aDirectory: string): [string, string][] {
  return [
    ['a missing directory under /proc', '/proc/nope/x.out'],
    ['a new file in /proc', '/proc/x.out'],
    ['a file of /proc', '/proc/self/status'],
    ['a new file in /sys', '/sys/x.out'],
    ['a directory under /sys', '/sys/kernel/x.out'],
    ['/dev/full', '/dev/full'],
    ['a directory', aDirectory],
    ['below a file', join(fileAsParent, 'x.out')],
    ['a name too long', join(dir, `${'n'.repeat(300)}.out`)],
    ['a path too long', join(dir, `${'d/'.repeat(2100)}x.out`)],
    ['an empty path', ''],
    ['blanks', '   '],
  ];
}

/** Every hostile case, drawn with a fixed seed. */
export function hostileCases(dir: string, seed = 29): HostileCase[] {
  const f = inputFiles(dir);
  const cases: HostileCase[] = [];
  // No argument of a process can hold a NUL byte: a user cannot type one.
  const add = (what: string, args: string[], names: string) => {
    if (!args.some((arg) => arg.includes('\0'))) cases.push({ what, args, names });
  };
  const sample = <T>(arbitrary: fc.Arbitrary<T>, count: number, offset: number) =>
    fc.sample(arbitrary, { numRuns: count, seed: seed + offset });

  // Output paths, for every flag that writes one.
  const outputs: [string, (path: string) => string[]][] = [
    ...['--results', '--markdown', '--badge', '--junit', '--html', '--messages'].map(
      (flag): [string, (path: string) => string[]] => [flag, (path) => ['run', '--rule', 'INB-01', flag, path]],
    ),
    ['--format', (path) => ['run', '--rule', 'INB-01', '--format', `json:${path}`]],
    ['--write', (path) => ['baseline', '--rule', 'INB-01', '--write', path]],
    ['--out', (path) => ['replay', f.script, '--out', path]],
  ];
  for (const [flag, argv] of outputs)
    for (const [what, path] of badOutputs(dir, f.fileAsParent, f.aDirectory)) {
      // An empty path is refused for its emptiness; a directory is refused as --bundles' and --keep's place.
      add(`${flag} ${what}`, argv(path), flag);
    }
  for (const [what, path] of badOutputs(dir, f.fileAsParent, f.aDirectory).filter(([w]) => w !== 'a directory')) {
    add(
      `--bundles ${what}`,
      ['run', '--rule', 'INB-01', '--bundles', path === '/dev/full' ? f.fileAsParent : path],
      '--bundles',
    );
    add(`--keep ${what}`, ['replay', f.script, '--keep', path === '/dev/full' ? f.fileAsParent : path], '--keep');
  }

  // Files the kit reads, each malformed in every way.
  const readers: [string, (file: string) => string[], string | undefined][] = [
    ['--baseline', (file) => ['run', '--rule', 'INB-01', '--baseline', file], undefined],
    ['--rerun', (file) => ['run', '--rerun', file], undefined],
    ['replay', (file) => ['replay', file], undefined],
    ['diff (first)', (file) => ['diff', file, f.goodProjection], undefined],
    ['diff (second)', (file) => ['diff', f.goodProjection, file], undefined],
    ['inspect', (file) => ['inspect', file], undefined],
  ];
  for (const [reader, argv] of readers) {
    const files = [...f.anyFile, ...(reader === '--baseline' ? f.yamlFile : f.jsonFile)];
    for (const [what, file] of files) add(`${reader}: ${what}`, argv(file), file.split('/').pop()!);
  }
  add(
    '--baseline with a byte-order mark naming an unknown ID',
    ['run', '--baseline', f.withBom('b2.yaml', 'known-failures:\n  zz-1:\n    class: deviation\n    reason: x\n')],
    'zz-1',
  );
  add('diff of a projection with a byte-order mark and a script', ['diff', f.projectionBom, f.script], 'script.json');
  add('--rerun of results with a byte-order mark naming unknown IDs', ['run', '--rerun', f.resultsBom], 'zz-1');
  add('replay of a script with a byte-order mark and an unknown field', ['replay', f.scriptBom], 'bom-script.json');
  add('inspect of a file that is no store', ['inspect', f.notAStore], 'not-a-store');
  add('--runtime module that is not there', ['run', '--runtime', join(dir, 'none.ts')], '--runtime');
  add('--runtime module that is a directory', ['run', '--runtime', f.aDirectory], '--runtime');
  // SSE comments alone would play as a stream cut before its first event: the runtime's failure, not the file's.
  writeFileSync(join(dir, 'comments.sse'), ': keep-alive\n\n: another\n\n');
  const comments = relative(kitPath('recordings', 'openai-chat'), join(dir, 'comments'));
  const commentsScript = join(dir, 'comments-script.json');
  writeFileSync(
    commentsScript,
    JSON.stringify({
      format: 'kit-session-script/1',
      timeline: [{ step: 'provider-recording', name: comments }, { step: 'prompt', text: 'hi' }, { step: 'run' }],
    }),
  );
  add('replay of a recording of SSE comments alone', ['replay', commentsScript], 'comments.sse');
  // A frame is a chunk played to the runtime: many more than a turn streams would replay for minutes.
  writeFileSync(join(dir, 'many-frames.sse'), 'data: {}\n\n'.repeat(200_000));
  const manyFrames = join(dir, 'many-frames-script.json');
  writeFileSync(
    manyFrames,
    JSON.stringify({
      format: 'kit-session-script/1',
      timeline: [
        { step: 'provider-recording', name: relative(kitPath('recordings', 'openai-chat'), join(dir, 'many-frames')) },
      ],
    }),
  );
  add('replay of a recording of very many frames', ['replay', manyFrames], 'many-frames.sse');
  add('diff of a path holding a newline', ['diff', join(dir, 'a\nb.json'), f.goodProjection], 'a\nb.json');

  // Values of flags.
  const validShard = (text: string) => {
    const m = /^(\d+)\/(\d+)$/.exec(text);
    return !!m && Number.isSafeInteger(Number(m[2])) && Number(m[1]) >= 1 && Number(m[1]) <= Number(m[2]);
  };
  const shards = [
    '99999999999999999999/99999999999999999999',
    '0/3',
    '4/3',
    '1/0',
    '-1/2',
    '1/-2',
    '1.5/2',
    '1/2/3',
    '½',
    '١/٢',
    '1 /2',
    'NaN/NaN',
    '9007199254740993/9007199254740993',
    ...sample(
      fc.oneof(
        fc.string(),
        fc
          .tuple(fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }))
          .map(([k, n]) => `${k}/${n}`),
      ),
      170,
      1,
    ),
  ].filter((s) => !validShard(s) && s.trim() !== '' && !s.startsWith('-'));
  for (const shard of shards)
    add(`--shard ${JSON.stringify(shard)}`, ['run', '--rule', 'INB-01', '--shard', shard], '--shard');

  const validShare = (text: string) => {
    const t = text.trim();
    const pct = /^(\d+(?:\.\d+)?)%$/.exec(t);
    const frac = /^(\d+(?:\.\d+)?)$/.exec(t);
    return (!!pct && Number(pct[1]) <= 100) || (!!frac && Number(frac[1]) <= 1);
  };
  const shares = [
    '90',
    '66.6',
    '101%',
    '1.5',
    '0.9x',
    '%',
    '1e-1',
    '-0.5',
    'Infinity',
    '0x1',
    '９０%',
    ...sample(
      fc.oneof(
        fc.string(),
        fc.double().map(String),
        fc.double().map((d) => `${d}%`),
      ),
      140,
      2,
    ),
  ].filter((s) => !validShare(s) && s.trim() !== '' && !s.startsWith('-'));
  for (const share of shares)
    add(
      `--min-verdicts ${JSON.stringify(share)}`,
      ['run', '--rule', 'INB-01', '--min-verdicts', share],
      '--min-verdicts',
    );
  for (const share of ['0.9', '90%'])
    add(`--min-verdicts ${share} with a bad --shard`, ['run', '--min-verdicts', share, '--shard', '0/0'], '--shard');

  const scales = ['0', '0.01', '101', 'NaN', 'Infinity', '1e309', 'fast', '0x10', ...sample(fc.string(), 40, 3)].filter(
    (s) => {
      const n = Number(s);
      return !(Number.isFinite(n) && n >= 0.1 && n <= 100) && s.trim() !== '' && !s.startsWith('-');
    },
  );
  for (const scale of scales)
    add(
      `--timeout-scale ${JSON.stringify(scale)}`,
      ['run', '--rule', 'INB-01', '--timeout-scale', scale],
      '--timeout-scale',
    );

  const rules = ['INB-99', 'ZZZ-01', 'inb-01', 'INB01', 'INB-001', ...sample(fc.string(), 60, 4)].filter(
    (r) => !RULES.has(r) && r.trim() !== '' && !r.startsWith('-'),
  );
  for (const rule of rules) add(`--rule ${JSON.stringify(rule)}`, ['run', '--rule', rule], '--rule');

  const tags = ['@', 'and', '(@a', '@a or', 'not', '@a \\', '@nope-nothing', ...sample(fc.string(), 60, 5)].filter(
    (t) => t.trim() !== '' && !t.startsWith('-'),
  );
  for (const tag of tags) add(`--tags ${JSON.stringify(tag)}`, ['run', '--tags', tag], '--tags');

  const formats = [
    'nonsense',
    'json:',
    'html:',
    ':x',
    '.',
    ...sample(fc.stringMatching(/^[a-z]{1,10}$/), 30, 6),
  ].filter(
    (t) =>
      !['json', 'html', 'message', 'junit', 'progress', 'pretty', 'summary', 'usage', 'rerun', 'snippets'].includes(t),
  );
  for (const format of formats) add(`--format ${format}`, ['run', '--rule', 'INB-01', '--format', format], '--format');

  // Commands and flags that are not there, and options given without their value.
  const words = [
    'rn',
    'rnu',
    'ru',
    'dif',
    'inspct',
    'replya',
    'help',
    ...sample(fc.string({ minLength: 1 }), 50, 7),
  ].filter((w) => !COMMANDS.includes(w) && !w.startsWith('-') && w.trim() !== '');
  for (const word of words) add(`unknown command ${JSON.stringify(word)}`, [word], word.trim().split('\n')[0]!);
  const flags = sample(fc.stringMatching(/^[a-z][a-z-]{1,14}$/), 40, 8);
  const known = ['debug', 'color', 'help', 'version', 'no-color'];
  for (const flag of flags.filter((x) => !known.includes(x)))
    add(`unknown flag --${flag}`, ['lint', `--${flag}`], `--${flag}`);
  for (const flag of ['--results', '--junit', '--baseline', '--rerun', '--shard', '--min-verdicts', '--rule', '--tags'])
    add(`${flag} without a value`, ['run', flag], flag);

  // NO_COLOR (and a forced colour) must not push the one line off its place.
  const coloured = sample(fc.constantFrom(...cases), 150, 9);
  for (const c of coloured) cases.push({ ...c, what: `${c.what}, NO_COLOR set`, env: { NO_COLOR: '1' } });
  for (const c of sample(fc.constantFrom(...cases), 30, 10))
    cases.push({ ...c, what: `${c.what}, FORCE_COLOR set`, env: { FORCE_COLOR: '3' } });
  return cases;
}

/** Runs one case as a user would, in its own temporary directory and process group, and judges it. */
export async function tryCase(
  c: HostileCase,
  dir: string,
): Promise<{ measure: CaseMeasure; problems: string[]; stderr: string }> {
  const tmp = mkdtempSync(join(dir, 'case-'));
  const usage = join(dir, `${tmp.split('/').pop()}.time`);
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', usage, process.execPath, KIT, ...c.args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...c.env, TMPDIR: tmp, KIT_TMPDIR: tmp },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    process.kill(-child.pid!, 'SIGKILL');
  }, LIMITS.hangMs);
  const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  clearTimeout(timer);
  const wallMs = performance.now() - started;
  const [user, system, rss] = existsSync(usage)
    ? readFileSync(usage, 'utf8').trim().split('\n').pop()!.split(' ').map(Number)
    : [];
  rmSync(usage, { force: true });
  const measure = { wallMs, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, maxRssKb: rss ?? 0 };
  const problems: string[] = [];
  if (hung) problems.push(`still running after ${LIMITS.hangMs / 1000} s`);
  else if (status !== 2) problems.push(`exit ${status}, not 2`);
  // `/usr/bin/time` adds a line of its own when the command is killed by a signal.
  const lines = stderr.split('\n');
  if (!/^kit: [^\n]*\n$/.test(stderr)) problems.push(`stderr is ${lines.length - 1} line(s), not one "kit: ..." line`);
  else if (!stderr.includes(c.names) && !stderr.includes(JSON.stringify(c.names).slice(1, -1)))
    problems.push(`the line does not name ${c.names}`);
  if (stdout !== '') problems.push(`stdout: ${stdout.slice(0, 120)}`);
  if (measure.cpuMs > LIMITS.cpuMs) problems.push(`${Math.round(measure.cpuMs)} ms of CPU`);
  if (measure.maxRssKb > LIMITS.maxRssKb) problems.push(`${Math.round(measure.maxRssKb / 1024)} MiB of memory`);
  try {
    process.kill(-child.pid!, 0);
    problems.push('a process of its group is still running');
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // None left: as it should be.
  }
  const left = readdirSync(tmp);
  if (left.length > 0) problems.push(`left behind: ${left.join(', ')}`);
  rmSync(tmp, { recursive: true, force: true });
  return { measure, problems, stderr };
}

/** Tries `cases` two at a time; returns the mishandled ones and every measure. */
export async function tryCases(cases: HostileCase[], dir: string, onCase?: (done: number) => void) {
  const mishandled: Mishandling[] = [];
  const measures: (CaseMeasure & { what: string })[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      const { measure, problems, stderr } = await tryCase(c, dir);
      measures.push({ ...measure, what: c.what });
      if (problems.length > 0) mishandled.push({ case: c, problems, stderr });
      onCase?.(measures.length);
    }
  };
  await Promise.all([worker(), worker()]);
  return { mishandled, measures };
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--sample');
  const dir = mkdtempSync(join(tmpdir(), 'kit-hostile-'));
  try {
    const all = hostileCases(dir);
    const cases = at > 0 ? fc.sample(fc.constantFrom(...all), { numRuns: Number(process.argv[at + 1]), seed: 1 }) : all;
    const started = performance.now();
    const { mishandled, measures } = await tryCases(cases, dir, (done) => {
      if (process.stderr.isTTY) process.stderr.write(`\r${done}/${cases.length}`);
    });
    const seconds = (performance.now() - started) / 1000;
    const slowest = (key: 'cpuMs' | 'wallMs') => measures.reduce((a, b) => (b[key] > a[key] ? b : a));
    const out = [
      `${cases.length} hostile inputs tried in ${seconds.toFixed(0)} s; ${mishandled.length} mishandled`,
      `slowest: ${Math.round(slowest('cpuMs').cpuMs)} ms of CPU (${slowest('cpuMs').what}), ${Math.round(slowest('wallMs').wallMs)} ms of wall time (${slowest('wallMs').what})`,
      `most memory: ${Math.round(Math.max(...measures.map((m) => m.maxRssKb)) / 1024)} MiB`,
      ...mishandled.map(
        (m) =>
          `✖ ${m.case.what}: ${m.problems.join('; ')}\n    kit ${m.case.args.map((a) => JSON.stringify(a).slice(0, 80)).join(' ')}\n    ${m.stderr.trim().split('\n').slice(0, 3).join('\n    ').slice(0, 400)}`,
      ),
    ];
    process.stdout.write(`\n${out.join('\n')}\n`);
    process.exitCode = mishandled.length > 0 ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
