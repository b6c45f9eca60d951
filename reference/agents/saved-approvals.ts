import type { Db, Statements } from '../store/database.js';
import type { SessionEvent } from '../events/session-event.js';
import type { EventLog } from '../store/event-log.js';
import type { PermissionRequest } from './permission-board.js';

/**
 * Approvals the user saved for a project: a call of the same tool with the same command runs
 * without asking in every session of the project, after a restart too (TLS-05). Each is a durable
 * event of the session that saved it, projected by the session's project root.
 */
export const SAVED_APPROVALS_SCHEMA = `
CREATE TABLE IF NOT EXISTS saved_approvals (
  project_root TEXT NOT NULL,
  tool TEXT NOT NULL,
  pattern TEXT NOT NULL,
  PRIMARY KEY (project_root, tool, pattern)
);
`;

export function projectSavedApprovals(db: Statements, sessionId: string, event: SessionEvent): void {
  if (event.type !== 'permission.saved') return;
  db.prepare(
    'INSERT OR IGNORE INTO saved_approvals (project_root, tool, pattern) SELECT project_root, ?, ? FROM sessions WHERE id = ?',
  ).run(event.tool, event.pattern, sessionId);
}

/** What a saved approval matches of a call: the shell's command, or every call of another tool. */
export function approvalPattern(input: string): string {
  try {
    const parsed = JSON.parse(input) as { command?: unknown };
    return typeof parsed.command === 'string' ? parsed.command : '*';
  } catch {
    return '*';
  }
}

export class SavedApprovals {
  private readonly saved;

  constructor(
    db: Db,
    private readonly log: EventLog,
  ) {
    this.saved = db.prepare<[string, string, string], { found: number }>(
      'SELECT 1 AS found FROM saved_approvals WHERE project_root = ? AND tool = ? AND pattern = ?',
    );
  }

  /** Saves the approval of `request` for its session's project, durably, with the answer. */
  save(request: PermissionRequest): void {
    this.log.append(request.sessionId, [
      { type: 'permission.saved', tool: request.tool, pattern: request.pattern ?? '*' },
    ]);
  }

  covers(projectRoot: string, tool: string, pattern: string): boolean {
    return this.saved.get(projectRoot, tool, pattern) !== undefined;
  }
}
