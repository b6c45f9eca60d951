import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The directories of Qwen Code's environment, each a link: name in the directory, variable. */
const VARIABLES = { home: 'HOME', qwen: 'QWEN_HOME', runtime: 'QWEN_RUNTIME_DIR', tmp: 'TMPDIR' };

/**
 * The directories a `qwen --acp` process is given in its environment, which it cannot be given
 * again once started, as links of one directory of the adapter's that it points at each runtime's
 * directories in turn: one process can then serve runtime after runtime. Qwen Code resolves them
 * from its environment whenever it uses them (`Storage.getGlobalQwenDir`, `getRuntimeBaseDir`,
 * `os.homedir`), so through the links, it reaches the directories they name when it does.
 */
export class Links {
  constructor(parent) {
    this.root = mkdtempSync(join(parent, 'qwen-links-'));
    /** The process's working directory, empty: each session works in a location of its own. */
    this.cwd = join(this.root, 'cwd');
    mkdirSync(this.cwd);
  }

  /** The environment variables naming the links. */
  env() {
    return Object.fromEntries(Object.entries(VARIABLES).map(([name, variable]) => [variable, join(this.root, name)]));
  }

  /** Points each link at its directory of `targets` (`home`, `qwen`, `runtime`, `tmp`), made if missing. */
  point(targets) {
    for (const [name, target] of Object.entries(targets)) {
      mkdirSync(target, { recursive: true });
      // Replaced by a rename, so that the link never is missing while a process uses it.
      const next = join(this.root, `${name}.next`);
      rmSync(next, { force: true });
      symlinkSync(target, next);
      renameSync(next, join(this.root, name));
    }
  }

  /** Points the links at empty directories of their own, which hold nothing of any runtime. */
  idle() {
    const idle = join(this.root, 'idle');
    rmSync(idle, { recursive: true, force: true });
    this.point(Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, join(idle, name)])));
  }

  remove() {
    rmSync(this.root, { recursive: true, force: true });
  }
}
