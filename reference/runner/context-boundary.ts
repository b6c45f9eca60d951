import type { EventLog } from '../store/event-log.js';
import type { EpochStore, ContextEpoch } from '../context/epoch-store.js';
import type { IdSource } from '../ids.js';
import type { Session } from '../session/session-store.js';
import { ContextCompositionError, type ContextSource } from '../context/context-source.js';
import { initialize, reconcile } from '../context/system-context.js';

export interface ContextBoundaryDeps {
  log: EventLog;
  epochs: EpochStore;
  ids: IdSource;
  /** The sources of the session's location and selected agent, composed. */
  contextSources(session: Session): Promise<ContextSource[]>;
}

/** Why the context stops a drain before anything is sent. */
export class ContextBlocked extends Error {
  constructor(
    readonly code: 'context-unavailable' | 'context-invalid',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The System Context at one Safe Provider-Turn Boundary. The first observation of an epoch
 * initializes it (before any prompt is promoted); later ones are reconciled after promotion.
 */
export class ContextBoundary {
  private constructor(
    private readonly deps: ContextBoundaryDeps,
    private readonly session: Session,
    private readonly sources: ContextSource[],
    /** Set when this boundary created the epoch: nothing else is admitted at it. */
    private readonly initialized: boolean,
  ) {}

  static async open(deps: ContextBoundaryDeps, session: Session): Promise<ContextBoundary> {
    let sources: ContextSource[];
    try {
      sources = await deps.contextSources(session);
    } catch (error) {
      if (error instanceof ContextCompositionError) throw new ContextBlocked('context-invalid', error.message);
      throw error;
    }
    if (deps.epochs.find(session.id)) return new ContextBoundary(deps, session, sources, false);
    const initialization = await initialize(sources);
    if (initialization.kind === 'blocked') {
      throw new ContextBlocked('context-unavailable', `context unavailable: ${initialization.unavailable.join(', ')}`);
    }
    const { parts, snapshot } = initialization.baseline;
    deps.log.append(session.id, [{ type: 'context.initialized', baseline: parts.join('\n\n'), snapshot }]);
    return new ContextBoundary(deps, session, sources, true);
  }

  /** After promotion: changed sources become one durable system message, with the snapshot it admits. */
  async admitChanges(): Promise<ContextEpoch> {
    const epoch = this.deps.epochs.find(this.session.id)!;
    if (this.initialized) return epoch;
    const result = await reconcile(this.sources, epoch.snapshot);
    if (result.kind === 'updated') {
      const messageId = this.deps.ids.next('msg');
      this.deps.log.append(this.session.id, [
        { type: 'context.updated', messageId, text: result.text, snapshot: result.snapshot },
      ]);
    }
    return this.deps.epochs.find(this.session.id)!;
  }
}
