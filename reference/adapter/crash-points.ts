import type { SessionRuntime } from '../runtime.js';
import type { SessionEvent } from '../events/session-event.js';

export type CrashPoint = 'admission' | 'promotion' | 'system-message' | 'tool-output-file' | 'compaction-start';

/** The durable event whose commit each point follows. */
const COMMITTED: Record<Exclude<CrashPoint, 'tool-output-file'>, SessionEvent['type']> = {
  admission: 'prompt.admitted',
  promotion: 'prompt.promoted',
  'system-message': 'context.updated',
  'compaction-start': 'compaction.started',
};

/**
 * Real crashes at named durable points: the process kills itself the moment the write is
 * committed (or, for a tool's output file, written), before anything else runs.
 */
export class CrashPoints {
  private afterToolOutput = false;

  constructor(private readonly crash: () => void) {}

  arm(runtime: SessionRuntime, sessionId: string, after: CrashPoint): void {
    const crash = this.crash;
    if (after === 'tool-output-file') {
      this.afterToolOutput = true;
      return;
    }
    const cursor = runtime.events(sessionId).at(-1)?.seq ?? 0;
    runtime.tail(sessionId, cursor, ({ event }) => {
      if (event.type === COMMITTED[after]) crash();
    });
  }

  /** The Managed Tool Output File hook: the tool has finished, its settlement is not stored yet. */
  readonly toolOutputWritten = (): void => {
    if (this.afterToolOutput) this.crash();
  };
}
