import Database from 'better-sqlite3';

/**
 * Real durable-write failures for recovery scenarios: a trigger in the runtime's own database
 * makes SQLite refuse the write, exactly as a full disk or an I/O error would.
 */
export class WriteFaults {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
  }

  failSystemMessages(failing: boolean): void {
    this.db.exec(
      failing
        ? `CREATE TRIGGER IF NOT EXISTS fail_system_messages BEFORE INSERT ON messages WHEN NEW.role = 'system'
           BEGIN SELECT RAISE(ABORT, 'injected write failure'); END`
        : 'DROP TRIGGER IF EXISTS fail_system_messages',
    );
  }

  close(): void {
    this.db.close();
  }
}
