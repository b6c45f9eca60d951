import { firstDifference } from '../../harness/report/first-difference.js';
import { inKitWords } from '../../harness/report/failure-words.js';
import { setDefinitionFunctionWrapper } from '@cucumber/cucumber';
import { TestStepResultStatus } from '@cucumber/messages';
import type { RuntimeDescription } from '../../harness/protocol/protocol.js';
import { RuntimeReportedError } from '../../harness/driver/runtime-driver.js';
import { asNotDriven, asRuntimeEnded } from '../../harness/driver/runtime-fault.js';
import { meansCover } from '../../harness/means/tool-means.js';
import { partsRequested } from '../../harness/protocol/protocol-schema.js';
import { covers } from '../../harness/suite/rule-subjects.js';
import {
  capabilityOfCommand,
  capabilityOfTool,
  declares,
  neededCapabilities,
  needsReason,
  SESSION_COMMAND,
} from '../../harness/protocol/capabilities.js';
import { ABSENT_MARK, REASONS_SEPARATOR } from '../../harness/report/scenario-results.js';
import {
  EarlierCheckFailed,
  noteText,
  NotImplemented,
  PrerequisiteUnsupported,
  SuiteDefect,
  stepOutcome,
} from '../../harness/report/outcome.js';
import { runOnPastFailure, type RunningStep } from './checks.js';
import { KitWorld } from './world.js';

/** Whether a scenario applies to the runtime: its profile and capability tags, and what the runtime answers unsupported. */

/** Why a runtime of this description gives a scenario with these tags no verdict, if it does not. */
export function withoutVerdict(tags: string[], description: RuntimeDescription): string | undefined {
  const profiles = tags.filter((tag) => tag.startsWith('@profile:')).map((tag) => tag.slice(9));
  if (
    profiles.length > 0 &&
    !profiles.some((profile) => (description.profiles as readonly string[]).includes(profile))
  ) {
    return `needs profile ${profiles.join(' or ')}`;
  }
  const missing = neededCapabilities(tags).filter(
    (capability) => !declares(description, capability) && !meansCover(description, capability),
  );
  return missing.length > 0 ? missing.map(needsReason).join(REASONS_SEPARATOR) : undefined;
}

/**
 * A scenario must name every optional capability it uses, or a runtime without it would fail the
 * scenario instead of getting no verdict: a defect of the suite, caught on every run.
 */
export function untaggedNeeds(world: KitWorld, tags: string[]): SuiteDefect[] {
  const used = new Set<string>(world.driver?.capabilitiesUsed ?? []);
  for (const tool of world.provider.scriptedTools) {
    const capability = capabilityOfTool(tool);
    if (capability) used.add(capability);
  }
  const tagged = new Set(neededCapabilities(tags));
  return [...used]
    .filter((capability) => !tagged.has(capability))
    .map(
      (capability) => new SuiteDefect(`the scenario uses capability ${capability} but has no tag @needs:${capability}`),
    );
}

/**
 * The commands, parts of commands (`prompt.admit.held`) and capabilities the scenario used that the
 * adapter declares it emulates: it computed them itself instead of reading them from the runtime,
 * so a verdict rests on them. A command counts by the answers it got (an answer may name the parts
 * it computed), a capability by its use; a name the runtime lacks altogether is marked `(absent)`.
 */
export function emulatedCommandsUsed(world: KitWorld): string[] {
  const driver = world.driver;
  if (!driver) return [];
  const absent = new Set(driver.description.absent ?? []);
  const capabilities = Object.keys(driver.description.emulated ?? {}).filter((name) =>
    [...driver.capabilitiesUsed].some((capability) => name === capability),
  );
  return [...new Set([...driver.emulatedUsed, ...capabilities])]
    .sort()
    .map((name) => (absent.has(name) ? `${name} ${ABSENT_MARK}` : name));
}

/**
 * A failed comparison of records says where they first differ: chai's own message shows each
 * record cut short, often before the difference, and Cucumber's diff of them is whole.
 */
function withFirstDifference(error: unknown): unknown {
  const { showDiff, expected, actual } = (error ?? {}) as { showDiff?: boolean; expected?: unknown; actual?: unknown };
  const comparable = (value: unknown) => typeof value === 'string' || (typeof value === 'object' && value !== null);
  if (!(error instanceof Error) || !showDiff || !comparable(expected) || !comparable(actual)) return error;
  const difference = firstDifference(expected, actual);
  // Two short texts, shown whole by the message: Cucumber's diff of them would only repeat it.
  if (!difference) return Object.assign(error, { showDiff: false });
  // Cucumber shows either the message or its own diff of the whole records; the message now says more.
  error.message = `${error.message}\n${difference.join('\n')}`;
  Object.assign(error, { showDiff: false });
  return error;
}

/**
 * `unsupported` on a command of an optional capability makes the scenario not applicable; on a
 * required command the action under test needs, it makes it not implemented, and on one it needs
 * only to set up or to look, not judged. A failed check runs on to the scenario's other rules'
 * checks where only checks follow (step-checks.ts); the last step then fails with the first.
 */
setDefinitionFunctionWrapper((fn: (...args: unknown[]) => unknown) => {
  const wrapped = async function (this: KitWorld | undefined, ...args: unknown[]) {
    // BeforeAll and AfterAll hooks run with no world.
    if (!(this instanceof KitWorld)) return fn.apply(this, args);
    const step = this.takeStep();
    let returned: unknown;
    try {
      returned = await fn.apply(this, args);
    } catch (error) {
      const thrown = stepError(this, error, step);
      const failedCheck =
        thrown instanceof Error && stepOutcome(TestStepResultStatus.FAILED, thrown.constructor.name) === 'failed';
      if (thrown === 'skipped') returned = thrown;
      // After a first failed check every step left is a check: each later failure is noted, the last step ends the scenario.
      else if (step && failedCheck && (step.runsOn || this.failedChecks.length > 0))
        await runOnPastFailure(this, thrown, step);
      else throw thrown;
    }
    const first = this.failedChecks[0];
    if (step && first && (step.last || returned === 'skipped')) throw new EarlierCheckFailed(first);
    return returned;
  };
  Object.defineProperty(wrapped, 'length', { value: fn.length });
  return wrapped;
});

/** What a step's error makes of the scenario: the error to fail it with, or `skipped` when it is not applicable. */
function stepError(world: KitWorld, error: unknown, step: RunningStep | undefined): unknown {
  if (!(error instanceof RuntimeReportedError) || error.code !== 'unsupported')
    return (
      asRuntimeEnded(error, world.driver?.description.runtime.inAdapterProcess === true, step?.kind === 'Action') ??
      asNotDriven(error) ??
      withFirstDifference(inKitWords(error))
    );
  // A capability the runtime declares but whose command it refuses as the scenario's action (a
  // host variable it reads none of, say) is not implemented; refused to set up or to look, the
  // capability is as good as undeclared here.
  const capability = capabilityOfCommand(error.command.cmd);
  if (capability && !(declares(world.driver.description, capability) && step?.kind === 'Action'))
    return world.notApplicable(needsReason(capability));
  const why = `the runtime answered unsupported: ${error.reason}`;
  if (step && step.kind !== 'Action' && error.command.cmd !== SESSION_COMMAND) {
    // Which of it the runtime lacks altogether, as its handshake says: a rule about that is not implemented.
    const absent = refusedNames(error.command).filter((name) =>
      (world.driver.description.absent ?? []).some((lacked) => covers(lacked, name)),
    );
    if (absent.length > 0) world.log(noteText({ kind: 'refused to reach', reason: absent.join(', ') }));
    return new PrerequisiteUnsupported(error.command.cmd, why);
  }
  // A runtime that cannot create a session lacks whatever any rule is about.
  if (error.command.cmd !== SESSION_COMMAND)
    world.log(noteText({ kind: 'refused', reason: refusedNames(error.command).join(', ') }));
  return new NotImplemented(error.command.cmd, why);
}

/**
 * What a refused command stands for: the parts of it the command asked for (an admission without a
 * run, `prompt.admit.held`), or else the whole command. A rule about another part of it is not
 * implemented by the refusal (coverage.ts).
 */
function refusedNames(command: { cmd: string }): string[] {
  const parts = partsRequested(command);
  return parts.length > 0 ? parts : [command.cmd];
}
