import type { ContextDesign } from './context/context-design.js';
import type { CheckpointForm } from './history/model-history.js';

/** The rule profiles the reference implements (RULES.md, Profiles). */
export type ProfileName = 'core' | 'checkpoint' | 'continuation' | 'sol';

/** What a profile changes; every other behaviour is the core design's. */
interface Traits {
  /** The earlier Context Checkpoint design (`001`, LEG rules) instead of the core design. */
  checkpointDesign: boolean;
  /** The token, pruning, retry, doom-loop and compaction behaviour of the Go session package (`004`). */
  goSessionPackage: boolean;
  /** A continuation message after each compaction (`002`, CON rules). */
  continuationMessage: boolean;
}

const PROFILES: Record<ProfileName, Traits> = {
  core: { checkpointDesign: false, goSessionPackage: false, continuationMessage: false },
  checkpoint: { checkpointDesign: true, goSessionPackage: false, continuationMessage: false },
  continuation: { checkpointDesign: false, goSessionPackage: false, continuationMessage: true },
  sol: { checkpointDesign: false, goSessionPackage: true, continuationMessage: false },
};

/**
 * The profile one runtime process follows, chosen by configuration and read once. Its methods
 * answer the questions the runtime asks where the profiles differ; nothing else looks at its name.
 */
export class Profile implements ContextDesign {
  private constructor(private readonly traits: Traits) {}

  /** The core design alone; also the profile of a configuration that names none. */
  static readonly core = new Profile(PROFILES.core);

  /** `checkpoint`, `continuation`, `sol` or `core`; nothing (or an empty text) is `core`. */
  static parse(name: string | undefined): Profile {
    if (name === undefined || name === '') return Profile.core;
    if (!Object.hasOwn(PROFILES, name)) throw new Error(`unknown profile "${name}" (expected one of ${names()})`);
    return new Profile(PROFILES[name as ProfileName]);
  }

  /** The profiles declared to the kit: the context design, then the additions to it. */
  declared(): ProfileName[] {
    const { checkpointDesign, goSessionPackage, continuationMessage } = this.traits;
    return [
      checkpointDesign ? 'checkpoint' : 'core',
      ...(goSessionPackage ? ['sol' as const] : []),
      ...(continuationMessage ? ['continuation' as const] : []),
    ];
  }

  hashesSnapshot(): boolean {
    return this.traits.checkpointDesign;
  }

  keepsBaselineParts(): boolean {
    return this.traits.checkpointDesign;
  }

  ordersBuiltInsFirst(): boolean {
    return this.traits.checkpointDesign;
  }

  separatesInstructionFiles(): boolean {
    return this.traits.checkpointDesign;
  }

  discoversNestedInstructions(): boolean {
    return this.traits.checkpointDesign;
  }

  endsEpochOnSwitch(): boolean {
    return this.traits.checkpointDesign;
  }

  /** RTY-01: retryable provider failures are retried; otherwise they fail the turn. */
  retriesProvider(): boolean {
    return this.traits.goSessionPackage;
  }

  /** RTY-03: repeated identical tool calls ask the user before they run. */
  detectsDoomLoops(): boolean {
    return this.traits.goSessionPackage;
  }

  /** RTY-04: a prompt entry without the inbox, refusing a prompt while the session is busy. */
  offersInboxFreePrompts(): boolean {
    return this.traits.goSessionPackage;
  }

  /** PRU-03: old tool outputs are pruned before each provider turn. */
  prunesToolOutputs(): boolean {
    return this.traits.goSessionPackage;
  }

  /** PRU-02: the token usage a provider reported can call for a compaction. */
  compactsOnReportedUsage(): boolean {
    return this.traits.goSessionPackage;
  }

  /** SCP-04: the compaction configuration can turn automatic compaction and pruning off. */
  obeysCompactionSwitches(): boolean {
    return this.traits.goSessionPackage;
  }

  /**
   * SCP-02, SCP-03: a compaction stands in as the trigger question answered by its summary, and
   * is asked for as the Go session package asks; otherwise it is one summary message.
   */
  checkpointForm(): CheckpointForm {
    return this.traits.goSessionPackage ? 'trigger-answer' : 'summary-message';
  }

  /** SCP-01: a compaction whose summary leaves nothing to answer is followed by `continue`. */
  continuesAfterCompaction(): boolean {
    return this.traits.goSessionPackage;
  }

  /**
   * CON-01: a compaction folds the pending input too, and a continuation message, decided from
   * the history before it, lets the drain go on (instead of re-running the pending turn).
   */
  injectsContinuation(): boolean {
    return this.traits.continuationMessage;
  }
}

function names(): string {
  return Object.keys(PROFILES).join(', ');
}
