import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { PROJECTION_FORMAT, type ProjectedTurn } from './projection.js';

/** Written to the file in pieces of about this many characters. */
const FLUSH_AT = 1 << 16;

/** What lies around a turn in `JSON.stringify({ turns: [turn] }, null, 2)`. */
const [WRAPPED_HEAD, WRAPPED_TAIL] = ['{\n  "turns": [\n'.length, '\n  ]\n}'.length];

/**
 * Writes a projection turn by turn, laid out as `JSON.stringify(projection, null, 2)` lays it
 * out, so that a long replay never holds it whole. It is written beside `path` and moved there
 * by `end`: a replay that stops halfway leaves no half-written projection.
 */
export class ProjectionWriter {
  private readonly partial: string;
  private readonly fd: number;
  private pending = '';
  private turns = 0;
  private begun = false;

  constructor(
    private readonly path: string,
    private readonly script: string,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.partial = `${path}.partial`;
    this.fd = openSync(this.partial, 'w');
  }

  /** Starts the document; the runtime is named before the turns. */
  begin(runtime: string): void {
    const head = this.document(runtime);
    this.write(head.slice(0, head.lastIndexOf('[') + 1));
    this.begun = true;
  }

  turn(turn: ProjectedTurn): void {
    // Laid out inside `{ "turns": [ … ] }`, the turn is indented as in the whole document.
    const wrapped = JSON.stringify({ turns: [turn] }, null, 2);
    this.write(`${this.turns++ === 0 ? '' : ','}\n${wrapped.slice(WRAPPED_HEAD, -WRAPPED_TAIL)}`);
  }

  /** Ends the document and moves it into place; `runtime` names it if no turn began it. */
  end(runtime: string): void {
    if (!this.begun) this.write(`${this.document(runtime)}\n`);
    else this.write(this.turns === 0 ? ']\n}\n' : '\n  ]\n}\n');
    this.flush();
    closeSync(this.fd);
    renameSync(this.partial, this.path);
  }

  /** Drops the partial file, when the replay could not finish. */
  abandon(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed by a failed `end`.
    }
    rmSync(this.partial, { force: true });
  }

  private document(runtime: string): string {
    return JSON.stringify({ format: PROJECTION_FORMAT, script: this.script, runtime, turns: [] }, null, 2);
  }

  private write(text: string): void {
    this.pending += text;
    if (this.pending.length >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    writeSync(this.fd, this.pending);
    this.pending = '';
  }
}
