// One bundle of the kit's TypeScript for Node to load without a TypeScript loader: loading tsx and
// transpiling hundreds of modules on every start costs more than most commands' own work. Plain
// JavaScript, so that it runs before any loader is registered.
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The kit's own directory, found from this file: the bundles live outside it when it is read only. */
const KIT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * How the kit's sources are bundled, the one place for it: `entry` is one module, or several imported
 * in order. A package is imported from the kit's own node_modules by its resolved URL, so a bundle
 * works from any directory and shares one instance of each package with the rest of the process
 * (Cucumber's step registry above all); so is the kit's plain JavaScript, such as this module.
 * `import.meta.url` keeps naming the source file, so paths relative to a module find the kit's files.
 * The packages named in `inline` are bundled in instead, each with what it imports.
 * `contents` may replace a source's text as it is read. Returns the names the entry exports.
 * @param {{ entry: string | string[], out: string, inline?: string[], sourceMaps?: boolean, contents?: (path: string) => string | undefined }} options
 */
export async function bundleModule(options) {
  const esbuild = await import('esbuild');
  building += 1;
  try {
    return await bundleWith(esbuild.build, options);
  } finally {
    // esbuild's service process would outlive a command that ends right after the build.
    if (--building === 0) await esbuild.stop();
  }
}

/** Builds in flight: the service stops once none is. */
let building = 0;

/** @param {typeof import('esbuild').build} build @param {Parameters<typeof bundleModule>[0]} options */
async function bundleWith(build, { entry, out, inline = [], sourceMaps = false, contents = () => undefined }) {
  const entries = Array.isArray(entry)
    ? { stdin: { contents: entry.map((path) => `import ${JSON.stringify(path)};`).join('\n'), resolveDir: KIT } }
    : { entryPoints: [entry] };
  const { outputFiles, metafile } = await build({
    ...entries,
    metafile: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    // A module imported on demand, as a command's implementation is, becomes a chunk loaded on
    // demand with its packages.
    splitting: true,
    outdir: dirname(out),
    entryNames: basename(out, extname(out)),
    outExtension: { '.js': extname(out) },
    // A package bundled in that is CommonJS may require Node's own modules.
    banner: {
      js: "import { createRequire as kitCreateRequire } from 'node:module'; const require = kitCreateRequire(import.meta.url);",
    },
    // Inline maps only where a location must name the TypeScript source, as Cucumber's step locations do.
    ...(sourceMaps ? { sourcemap: 'inline', sourcesContent: false } : {}),
    plugins: [
      {
        name: 'kit-sources',
        setup(plugin) {
          plugin.onResolve({ filter: /^[^./]/ }, ({ kind, path, importer }) =>
            kind === 'entry-point' || inline.includes(packageName(path)) || inPackage(importer)
              ? undefined
              : { path: import.meta.resolve(path), external: true },
          );
          // A `.js` import of a TypeScript module names a file that does not exist; a real one runs as it is.
          plugin.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, resolveDir, importer }) => {
            const file = resolve(resolveDir, path);
            return !inPackage(importer) && existsSync(file)
              ? { path: pathToFileURL(file).href, external: true }
              : undefined;
          });
          plugin.onLoad({ filter: /\.[cm]?[jt]s$/ }, ({ path }) => {
            const source = contents(path) ?? readFileSync(path, 'utf8');
            const url = JSON.stringify(pathToFileURL(path).href);
            return { contents: source.replaceAll('import.meta.url', url), loader: path.endsWith('ts') ? 'ts' : 'js' };
          });
        },
      },
    ],
  });
  // The entry goes last: it is what says the build is done.
  const ordered = outputFiles.sort((a, b) => Number(a.path === out) - Number(b.path === out));
  for (const file of ordered) writeAtomically(file.path, file.contents);
  const [, entryOutput] = Object.entries(metafile.outputs).find(([path]) => resolve(path) === out) ?? [];
  return entryOutput?.exports ?? [];
}

/**
 * The file URL of a bundle of `entry`, rebuilt when any file under `roots` is newer than it. Where the
 * kit is read only (an installed package), the bundle is cached in the OS temp directory under the
 * kit's path and version; where neither can be written, undefined: the caller loads the sources as they are.
 * @param {{ name: string, entry: string | string[], roots: string[], inline?: string[], sourceMaps?: boolean }} options
 */
export async function cachedBundle({ name, entry, roots, inline, sourceMaps = false }) {
  const started = Date.now();
  const directory = cacheDirectory();
  if (!directory) return undefined;
  // Each build has a directory of its own, and a small module names the current one: a process
  // still running an earlier build keeps its files, and processes building together never mix theirs.
  const home = join(directory, name);
  const current = join(home, `${name}.mjs`);
  if (builtAt(current) < Math.max(installedAt(), ...roots.map(newestFile))) {
    const build = `${started.toString(36)}-${process.pid}`;
    const exports = await bundleModule({ entry, out: join(home, build, `${name}.mjs`), inline, sourceMaps });
    const from = JSON.stringify(`./${build}/${name}.mjs`);
    writeAtomically(
      current,
      exports.length > 0 ? `export { ${exports.join(', ')} } from ${from};\n` : `import ${from};\n`,
    );
    // Dated to the build's start, so that a source saved while it ran makes the next run rebuild.
    utimesSync(current, started / 1000, started / 1000);
    for (const earlier of readdirSync(home, { withFileTypes: true })) {
      if (earlier.isDirectory() && earlier.name !== build) removeIfOlder(join(home, earlier.name), started);
    }
  }
  return pathToFileURL(current).href;
}

/** How long an earlier build stays for the processes that may still load its chunks. */
const KEEP_EARLIER_BUILDS_MS = 60 * 60 * 1000;

/**
 * Removes an earlier build made long enough before `started`. Processes building together all clear
 * up, so another may be removing it meanwhile: that is no failure of this command.
 * @param {string} path
 * @param {number} started
 */
function removeIfOlder(path, started) {
  try {
    if (statSync(path).mtimeMs < started - KEEP_EARLIER_BUILDS_MS) rmSync(path, { recursive: true, force: true });
  } catch {}
}

/**
 * Where the kit keeps what it builds, or undefined where nothing can be kept. Bundles embed the kit's
 * absolute paths: the directory is keyed by them, and by the version. One in the shared temp directory
 * is the user's own and closed to others, since its code is run as is.
 * @returns {string | undefined}
 */
export function cacheDirectory() {
  if (cache === null) cache = findCacheDirectory();
  return cache;
}

/** @type {string | undefined | null} */
let cache = null;

function findCacheDirectory() {
  const { version } = JSON.parse(readFileSync(join(KIT, 'package.json'), 'utf8'));
  const key = createHash('sha256').update(`${KIT}\0${version}`).digest('hex').slice(0, 12);
  const inKit = join(KIT, '.kit', 'build', key);
  const inTemp = join(tmpdir(), `session-runtime-kit-${process.getuid?.() ?? 'user'}-${key}`);
  for (const directory of [inKit, inTemp]) {
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      accessSync(directory, constants.W_OK);
      const { uid, mode } = statSync(directory);
      if (directory === inTemp && (uid !== process.getuid?.() || (mode & 0o022) !== 0)) continue;
      return directory;
    } catch {}
  }
  return undefined;
}

/** A package's file, not the kit's: the kit itself may be installed in a node_modules. */
function inPackage(path) {
  const inKit = relative(KIT, path);
  return isAbsolute(path) && (inKit.startsWith('..') || /(^|\/)node_modules\//.test(inKit));
}

/** `yargs` of `yargs/helpers`, `@cucumber/cucumber` of `@cucumber/cucumber/api`. */
function packageName(specifier) {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

/**
 * Processes starting together may all build: each renames a whole file into place.
 * @param {string} path
 * @param {string | Uint8Array} contents
 */
export function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

function builtAt(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * When npm last changed the packages a bundle imports by path or holds a copy of: it keeps a record of
 * the tree in node_modules, rewritten by every install (the packages' own files keep their packed dates).
 */
function installedAt() {
  const packages = fileURLToPath(import.meta.resolve('esbuild'));
  return builtAt(`${packages.slice(0, packages.lastIndexOf('/node_modules/'))}/node_modules/.package-lock.json`);
}

/**
 * Paths joined by hand: this runs on every start, over every source. A file an editor removes while
 * it is looked at (a swap or temporary file) counts for nothing.
 */
function newestFile(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return stat?.mtimeMs ?? 0;
  let newest = stat.mtimeMs;
  let entries = [];
  try {
    entries = readdirSync(path);
  } catch {}
  for (const entry of entries) newest = Math.max(newest, newestFile(`${path}/${entry}`));
  return newest;
}

/**
 * Runs `entry` from its cached bundle, or through tsx where no bundle can be kept: a program's start
 * without a TypeScript loader on every run but the first.
 */
export async function runBundled(options) {
  const bundle = await cachedBundle(options);
  if (bundle) return import(bundle);
  const { register } = await import('tsx/esm/api');
  register();
  return import(options.entry);
}
