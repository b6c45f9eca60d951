import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type RuntimeDriver, RuntimeReportedError, type AdmitOptions } from '../driver/runtime-driver.js';
import { asNotDriven } from '../driver/runtime-fault.js';
import type { FakeProvider } from '../provider/fake-provider.js';
import { recordingTurn, textTurn, toolCallsTurn } from '../provider/turns.js';
import { openTarget, type RuntimeSelection } from '../runtime-target.js';
import { fakeProvider, startRuntime } from '../runtime-start.js';
import { KitInputError } from '../input-error.js';
import { RequestProjector, type Projection } from '../projection/projection.js';
import type { SessionScript, TimelineStep } from './session-script.js';

export interface ReplayOptions {
  runtime: RuntimeSelection;
  timeoutScale: number;
  validate: boolean;
  /** Keep the runtime's store, the session's workspace and the home directory here instead of deleting them. */
  keep?: string;
}

export interface ReplayOutcome {
  projection: Projection;
  /** Requests no scripted turn answered: the script gave the provider too few turns. */
  unanswered: string[];
  /** Requests the provider could not read: the runtime sent something that is no provider request. */
  unreadable: string[];
  /** Provider turns the script gave that no request took, e.g. `timeline[4] (provider-text)`: a drain ended early. */
  unused: string[];
  /** Failures the runtime recorded for the session, and the diagnostics it reported (why a drain failed, say). */
  failures: string[];
  diagnostics: string[];
  /** Where the runtime failed, e.g. `timeline[3] (prompt)`, and how; `notDriven` when it could not be driven at all. */
  stoppedAt?: { at: string; reason: string; notDriven: boolean };
}

/** Runs a session script through a runtime and projects what the model saw on each turn. */
export async function replayScript(script: SessionScript, options: ReplayOptions): Promise<ReplayOutcome> {
  const dir = options.keep ? emptyDirectory(resolve(options.keep)) : mkdtempSync(join(tmpdir(), 'kit-replay-'));
  const [store, workspace, home] = [join(dir, 'store'), join(dir, 'workspace'), join(dir, 'home')];
  for (const path of [store, workspace, home]) mkdirSync(path, { recursive: true });
  const target = await openTarget(options.runtime);
  const provider = fakeProvider(script.dialect, script.model);
  const projector = new RequestProjector(maskDirectory(dir));
  provider.streamRequests((request) => projector.add(request));
  const stopRouting = target.route(provider);
  let driver: RuntimeDriver | undefined;
  let runtime = 'a runtime that did not start';
  let sessionId = '';
  const start = async () => {
    driver = await startRuntime(target, provider, {
      storeDir: store,
      now: script.now,
      home,
      timeoutScale: options.timeoutScale,
      validate: options.validate,
    });
    const described = driver.description;
    runtime = `${described.runtime.name} ${described.runtime.version} (${described.runtime.language})`;
    if (!(described.profiles as readonly string[]).includes(script.profile)) {
      throw new KitInputError(
        script.file,
        `profile: the runtime declares ${described.profiles.join(', ') || 'no profile'}, not ${script.profile}`,
      );
    }
    ({ sessionId } = await driver.createSession(workspace, script.session));
  };
  try {
    const perform = stepActions(
      () => driver!,
      provider,
      () => sessionId,
      workspace,
    );
    const enqueued: string[] = [];
    const stoppedAt = await playSteps([
      ['start-up (hello, session.create)', start],
      ...script.timeline.map((step, i): Step => {
        const at = `timeline[${i}] (${step.step})`;
        return [
          at,
          () => {
            if (step.step.startsWith('provider-')) enqueued.push(at);
            return perform(step);
          },
        ];
      }),
      ['the final settle', () => driver!.idle(sessionId)],
    ]);
    // Turns are taken in order, so the ones left are the last given.
    const unused = enqueued.slice(enqueued.length - provider.unconsumed);
    const reported = stoppedAt?.notDriven
      ? { failures: [], diagnostics: [] }
      : await reportedProblems(driver, sessionId);
    return {
      projection: projector.projection(script.file, runtime),
      unanswered: provider.unexpected,
      unreadable: provider.unreadable,
      unused,
      ...reported,
      ...(stoppedAt ? { stoppedAt } : {}),
    };
  } finally {
    await driver?.stop().catch(() => {});
    provider.releaseAll();
    stopRouting();
    await target.close();
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What the runtime itself reports went wrong: its recorded failures and its diagnostics. A
 * runtime that does not support asking, or did not start, reports nothing.
 */
async function reportedProblems(
  driver: RuntimeDriver | undefined,
  sessionId: string,
): Promise<{ failures: string[]; diagnostics: string[] }> {
  const ask = async <T>(question: () => Promise<T[]>): Promise<T[]> => {
    try {
      return driver && sessionId ? await question() : [];
    } catch (error) {
      if (isRuntimeFault(error)) return [];
      throw error;
    }
  };
  const failures = await ask(() => driver!.failures(sessionId));
  const diagnostics = await ask(async () => (await driver!.call('diagnostics')).diagnostics);
  return { failures: failures.map((failure) => `${failure.code}: ${failure.message}`), diagnostics };
}

/** A step of the replay, named for the report should the runtime fail it. */
type Step = [at: string, run: () => Promise<unknown> | unknown];

/** Runs the steps in order; a runtime that fails one ends the replay there. */
async function playSteps(steps: Step[]): Promise<ReplayOutcome['stoppedAt']> {
  for (const [at, run] of steps) {
    try {
      await run();
    } catch (error) {
      if (!isRuntimeFault(error)) throw error;
      return { at, reason: error.message, notDriven: asNotDriven(error) !== undefined };
    }
  }
  return undefined;
}

/** The driver and session exist only once the runtime has started, hence the getters. */
function stepActions(runtime: () => RuntimeDriver, provider: FakeProvider, session: () => string, workspace: string) {
  return (step: TimelineStep): unknown => {
    const [driver, sessionId] = [runtime(), session()];
    switch (step.step) {
      case 'prompt':
        return driver.admit(sessionId, step.text, admitOptions(step));
      case 'clock':
        return driver.setClock(new Date(step.now).toISOString());
      case 'run':
        return driver.run(sessionId);
      case 'wake':
        return driver.wake(sessionId);
      case 'settle':
        return driver.idle(sessionId);
      case 'wait-for-gate':
        return driver.gateBlocked(step.gate);
      case 'open-gate':
        return driver.openGate(step.gate);
      case 'write-file': {
        const path = resolve(workspace, step.path);
        mkdirSync(dirname(path), { recursive: true });
        return writeFileSync(path, step.content);
      }
      case 'provider-text':
        return provider.enqueue({ turn: textTurn(step.text, step.chunks ?? 1) });
      case 'provider-tool-calls':
        return provider.enqueue({ turn: toolCallsTurn(step.calls) });
      case 'provider-recording':
        return provider.enqueue({ turn: recordingTurn(step.name) });
    }
  };
}

/** Only the options the step sets: an absent one is the runtime's default, not `undefined`. */
function admitOptions(step: Extract<TimelineStep, { step: 'prompt' }>): AdmitOptions {
  return {
    ...(step.id !== undefined ? { id: step.id } : {}),
    ...(step.delivery !== undefined ? { delivery: step.delivery } : {}),
    ...(step.resume !== undefined ? { resume: step.resume } : {}),
  };
}

/** The runtime under test failed or misbehaved: a finding to report, not a bug of the kit. */
function isRuntimeFault(error: unknown): error is Error {
  return error instanceof RuntimeReportedError || asNotDriven(error) !== undefined;
}

/** Where the replay ran differs on every run; projections name it `<replay-dir>` so they compare. */
const REPLAY_DIR = '<replay-dir>';

function maskDirectory(dir: string): (text: string) => string {
  const spellings = [...new Set([realpathSync(dir), resolve(dir)])].sort((a, b) => b.length - a.length);
  return (text) => spellings.reduce((masked, spelling) => masked.split(spelling).join(REPLAY_DIR), text);
}

function emptyDirectory(path: string): string {
  if (existsSync(path) && readdirSync(path).length > 0) throw new KitInputError('--keep', `${path} is not empty`);
  mkdirSync(path, { recursive: true });
  return path;
}
