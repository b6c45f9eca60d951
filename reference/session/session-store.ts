import type { Db } from '../store/database.js';
import type { EventLog } from '../store/event-log.js';
import type { Clock } from '../clock.js';
import { RuntimeError } from '../errors.js';

export interface Session {
  id: string;
  location: string;
  projectRoot: string;
  /** The selected agent; null runs as the default agent. */
  agent: string | null;
  /** The selected model; null uses the runtime's configured model. */
  model: string | null;
  /** The user asked for a compaction; it happens before the next provider turn. */
  compactionRequested: boolean;
}

interface Row {
  id: string;
  location: string;
  project_root: string;
  compaction_requested: number;
  agent: string | null;
  model: string | null;
}

/** Sessions: creation is idempotent on the ID, and a session's location changes only by a move. */
export class SessionStore {
  private readonly byId;
  private readonly insert;

  constructor(
    db: Db,
    private readonly log: EventLog,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare<[string], Row>(
      'SELECT id, location, project_root, compaction_requested, agent, model FROM sessions WHERE id = ?',
    );
    this.insert = db.prepare('INSERT INTO sessions (id, location, project_root, created_at) VALUES (?, ?, ?, ?)');
  }

  find(id: string): Session | undefined {
    const row = this.byId.get(id);
    return (
      row && {
        id: row.id,
        location: row.location,
        projectRoot: row.project_root,
        agent: row.agent,
        model: row.model,
        compactionRequested: row.compaction_requested === 1,
      }
    );
  }

  get(id: string): Session {
    const session = this.find(id);
    if (!session) throw new RuntimeError('not-found', `no session ${id}`);
    return session;
  }

  /** Returns the existing session when the ID is taken, so a retried create is harmless. */
  create(id: string, location: string, projectRoot: string): { session: Session; created: boolean } {
    return this.log.atomically(id, () => {
      const existing = this.find(id);
      if (existing) return { session: existing, created: false };
      this.insert.run(id, location, projectRoot, this.clock.now().toISOString());
      this.log.append(id, [{ type: 'session.created', location, projectRoot }]);
      return { session: this.get(id), created: true };
    });
  }

  /** The destination must build a complete baseline of its own: the epoch ends with the move. */
  move(id: string, location: string, projectRoot: string): void {
    this.get(id);
    this.log.append(id, [{ type: 'session.moved', location, projectRoot }, { type: 'context.cleared' }]);
  }

  requestCompaction(id: string): void {
    this.get(id);
    this.log.append(id, [{ type: 'compaction.requested' }]);
  }

  select(id: string, selection: { agent?: string | null; model?: string | null }, endsEpoch: boolean): void {
    this.get(id);
    this.log.append(id, [
      { type: 'session.selected', ...selection },
      ...(endsEpoch ? [{ type: 'context.replacement-requested' as const }] : []),
    ]);
  }
}
