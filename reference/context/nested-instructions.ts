import { existsSync } from 'node:fs';
import { dirname, join, relative, isAbsolute } from 'node:path';
import type { Db } from '../store/database.js';
import type { EventLog } from '../store/event-log.js';
import { INSTRUCTIONS_FILE } from './sources/instructions.js';

/**
 * Nested AGENTS.md files: found in the directories between the session's location and a file a
 * tool read there, recorded durably, and part of the session's instructions while it stays put.
 */
export class NestedInstructions {
  private readonly list;

  constructor(
    db: Db,
    private readonly log: EventLog,
  ) {
    this.list = db.prepare<[string], { path: string }>(
      'SELECT path FROM discovered_instructions WHERE session_id = ? ORDER BY discovered_seq, path',
    );
  }

  paths(sessionId: string): string[] {
    return this.list.all(sessionId).map((row) => row.path);
  }

  /** Records the instruction files beside `file` that are below `location` and not known yet. */
  discover(sessionId: string, location: string, file: string): void {
    const known = new Set(this.paths(sessionId));
    const found: string[] = [];
    for (let dir = dirname(file); below(location, dir); dir = dirname(dir)) {
      const candidate = join(dir, INSTRUCTIONS_FILE);
      if (!known.has(candidate) && existsSync(candidate)) found.push(candidate);
    }
    if (found.length > 0) this.log.append(sessionId, [{ type: 'instructions.discovered', paths: found.reverse() }]);
  }
}

function below(location: string, dir: string): boolean {
  const rel = relative(location, dir);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
