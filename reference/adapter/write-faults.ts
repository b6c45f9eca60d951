import Database from 'better-sqlite3';

/**
 * Real durable-write failures for recovery scenarios: a trigger in the runtime's own database
 * makes SQLite refuse the write, exactly as a full disk or an I/O error would. The connection is
 * opened on the first fault only: most runtimes never have one.
 */
export class WriteFaults {
  private db: Database.Database | undefined;

  constructor(private readonly file: string) {}

  failSystemMessages(failing: boolean): void {
    this.db ??= new Database(this.file);
    this.db.exec(
      failing
        ? `CREATE TRIGGER IF NOT EXISTS fail_system_messages BEFORE INSERT ON messages WHEN NEW.role = 'system'
           BEGIN SELECT RAISE(ABORT, 'injected write failure'); END`
        : 'DROP TRIGGER IF EXISTS fail_system_messages',
    );
  }

  close(): void {
    this.db?.close();
  }
}
