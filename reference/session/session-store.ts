import type { Db } from '../store/database.js';
import type { EventLog } from '../store/event-log.js';
import type { Clock } from '../clock.js';
import { RuntimeError } from '../errors.js';

export interface Session {
  id: string;
  location: string;
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
    this.byId = db.prepare<[string], Session>('SELECT id, location FROM sessions WHERE id = ?');
    this.insert = db.prepare('INSERT INTO sessions (id, location, created_at) VALUES (?, ?, ?)');
  }

  find(id: string): Session | undefined {
    return this.byId.get(id);
  }

  get(id: string): Session {
    const session = this.find(id);
    if (!session) throw new RuntimeError('not-found', `no session ${id}`);
    return session;
  }

  /** Returns the existing session when the ID is taken, so a retried create is harmless. */
  create(id: string, location: string): { session: Session; created: boolean } {
    return this.log.atomically(id, () => {
      const existing = this.find(id);
      if (existing) return { session: existing, created: false };
      this.insert.run(id, location, this.clock.now().toISOString());
      this.log.append(id, [{ type: 'session.created', location }]);
      return { session: { id, location }, created: true };
    });
  }

  move(id: string, location: string): void {
    this.get(id);
    this.log.append(id, [{ type: 'session.moved', location }]);
  }
}
