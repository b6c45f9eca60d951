import { closeSync, openSync, readFileSync, readSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** A file a runtime keeps, and the text it holds. */
export interface KeptText {
  file: string;
  text: string;
}

const SQLITE_HEADER = 'SQLite format 3\0';
/** Larger files are caches or binaries a runtime downloads, not what it kept of a session. */
const LARGEST = 32 * 1024 * 1024;

/**
 * Every text a runtime keeps under the given directories, whatever its own format: each regular
 * file as UTF-8, a SQLite database by the values of its rows (a long value spans pages that
 * separate its bytes on disk, and a write-ahead log holds rows not yet in the file). Links are not
 * followed: a runtime's store is read, not what it points at. A file to skip is one file whatever
 * path names it: a runtime may name its files through a link to the directory they are in.
 */
export function keptTexts(directories: readonly string[], skip: ReadonlySet<string> = new Set()): KeptText[] {
  const skipped = new Set([...skip].map(realPath));
  const files = directories
    .flatMap((directory) => filesUnder(directory))
    .filter((file) => !skipped.has(realPath(file)));
  return files.flatMap((file) => {
    if (/-(wal|shm|journal)$/.test(file)) return [];
    try {
      const text = isSqlite(file) ? (databaseText(file) ?? readFileSync(file, 'utf8')) : readFileSync(file, 'utf8');
      return [{ file, text }];
    } catch {
      // A file the runtime removed after the directory was read.
      return [];
    }
  });
}

function filesUnder(directory: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile()) return [];
    try {
      return statSync(path).size <= LARGEST ? [path] : [];
    } catch {
      return [];
    }
  });
}

function isSqlite(file: string): boolean {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, header, 0, header.length, 0) === header.length && header.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

/** Every value of every table, one per line; undefined where the database cannot be opened. */
function databaseText(file: string): string | undefined {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return undefined;
  }
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    return tables
      .flatMap(
        ({ name }) =>
          db
            .prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`)
            .raw()
            .all() as unknown[][],
      )
      .flatMap((row) => row.map((value) => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value))))
      .join('\n');
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}

/** The file's path with every link resolved; as given where it no longer exists. */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
