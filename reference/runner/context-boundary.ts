import type { EventLog } from '../store/event-log.js';
import type { EpochStore, ContextEpoch } from '../context/epoch-store.js';
import type { IdSource } from '../ids.js';
import type { Session } from '../session/session-store.js';
import { ContextCompositionError, type ContextSource } from '../context/context-source.js';
import { initialize, reconcile, replace, type Baseline, type ContextSnapshot } from '../context/system-context.js';
import type { ContextDesign } from '../context/context-design.js';
import type { ProviderConfig } from '../provider/provider-turn-stream.js';

export interface ContextBoundaryDeps {
  profile: ContextDesign;
  log: EventLog;
  epochs: EpochStore;
  ids: IdSource;
  /** The sources of the session's location and selected agent, composed. */
  contextSources(session: Session): Promise<ContextSource[]>;
  provider: ProviderConfig;
}

/** Which provider a turn goes to: another dialect or endpoint is a provider switch. */
const providerOf = ({ dialect, baseUrl }: ProviderConfig) => `${dialect} ${baseUrl}`;

/** A provider switch keeps the epoch, except in the checkpoint design (EPO-08, LEG-02). */
function endsAtProviderSwitch(deps: ContextBoundaryDeps, epoch: ContextEpoch): boolean {
  return (
    deps.profile.endsEpochOnSwitch() && epoch.provider !== undefined && epoch.provider !== providerOf(deps.provider)
  );
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
    const epoch = deps.epochs.find(session.id);
    if (epoch && !epoch.replacementPending && endsAtProviderSwitch(deps, epoch))
      return ContextBoundary.replaced(deps, session, sources, epoch.snapshot);
    if (epoch && !epoch.replacementPending) return new ContextBoundary(deps, session, sources, false);
    if (epoch) return ContextBoundary.replaced(deps, session, sources, epoch.snapshot);
    const initialization = await initialize(deps.profile, sources);
    if (initialization.kind === 'blocked') {
      throw new ContextBlocked('context-unavailable', `context unavailable: ${initialization.unavailable.join(', ')}`);
    }
    const { snapshot } = initialization.baseline;
    const provider = providerOf(deps.provider);
    deps.log.append(session.id, [
      { type: 'context.initialized', parts: systemParts(deps.profile, initialization.baseline), snapshot, provider },
    ]);
    return new ContextBoundary(deps, session, sources, true);
  }

  /** A completed compaction ends the epoch: the next attempt starts one from the current context. */
  private static async replaced(
    deps: ContextBoundaryDeps,
    session: Session,
    sources: ContextSource[],
    snapshot: ContextSnapshot,
  ): Promise<ContextBoundary> {
    const replacement = await replace(deps.profile, sources, snapshot);
    if (replacement.kind === 'replacement-blocked') {
      throw new ContextBlocked('context-unavailable', `context unavailable: ${replacement.unavailable.join(', ')}`);
    }
    if (replacement.kind !== 'replacement-ready') throw new Error(`unexpected ${replacement.kind}`);
    const parts = systemParts(deps.profile, replacement.baseline);
    const { snapshot: replaced } = replacement.baseline;
    deps.log.append(session.id, [
      { type: 'context.replaced', parts, snapshot: replaced, provider: providerOf(deps.provider) },
    ]);
    return new ContextBoundary(deps, session, sources, true);
  }

  /** After promotion: changed sources become one durable system message, with the snapshot it admits. */
  async admitChanges(): Promise<ContextEpoch> {
    const epoch = this.deps.epochs.find(this.session.id)!;
    if (this.initialized) return epoch;
    const result = await reconcile(this.deps.profile, this.sources, epoch.snapshot);
    if (result.kind === 'updated') {
      const messageId = this.deps.ids.next('msg');
      const { text, keys, snapshot } = result;
      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);
    }
    return this.deps.epochs.find(this.session.id)!;
  }
}

/** The core design sends one joined baseline; the checkpoint design keeps each component a part. */
function systemParts(design: ContextDesign, baseline: Baseline): string[] {
  const texts = baseline.parts.map((part) => part.text);
  return design.keepsBaselineParts() ? texts : [texts.join('\n\n')];
}
