import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  AwaitedStateNotReached,
  type RuntimeDriver,
  RuntimeReportedError,
  type AdmitOptions,
} from '../driver/runtime-driver.js';
import { asNotDriven } from '../driver/runtime-fault.js';
import type { FakeProvider } from '../provider/fake-provider.js';
import { recordingTurn, textTurn, toolCallsTurn } from '../provider/turns.js';
import { openTarget, type RuntimeSelection } from '../runtime-target.js';
import { fakeProvider, startRuntime } from '../runtime-start.js';
import { KitInputError } from '../input-error.js';
import { RequestProjector, type ProjectedTurn } from '../projection/projection.js';
import type { SessionScript, TimelineStep } from './session-script.js';

export interface ReplayOptions {
  runtime: RuntimeSelection;
  timeoutScale: number;
  validate: boolean;
  /** Keep the runtime's store, the session's workspace and the home directory here instead of deleting them. */
  keep?: string;
}

/**
 * Where a replay's projection goes as it is made: nothing of it is kept, so that a long replay
 * needs memory for one turn only.
 */
export interface ProjectionSink {
  /** The runtime started and described itself as `runtime`; comes before any turn. */
  started(runtime: string): void;
  turn(turn: ProjectedTurn): void;
}

export interface ReplayOutcome {
  /** The runtime as it described itself, or that it did not start. */
  runtime: string;
  /** How many turns the projection has. */
  turns: number;
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

/**
 * Runs a session script through a runtime and projects what the model saw on each turn into
 * `sink`. It takes the steps out of the script's timeline as it plays them.
 */
export async function replayScript(
  script: SessionScript,
  options: ReplayOptions,
  sink: ProjectionSink,
): Promise<ReplayOutcome> {
  const dir = options.keep ? emptyDirectory(resolve(options.keep)) : mkdtempSync(join(tmpdir(), 'kit-replay-'));
  const [store, workspace, home] = [join(dir, 'store'), join(dir, 'workspace'), join(dir, 'home')];
  for (const path of [store, workspace, home]) mkdirSync(path, { recursive: true });
  const target = await openTarget(options.runtime, dir);
  const provider = fakeProvider(script.dialect, script.model);
  let turns = 0;
  const projector = new RequestProjector((turn) => {
    turns += 1;
    sink.turn(turn);
  }, maskDirectory(dir));
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
    sink.started(runtime);
    ({ sessionId } = await driver.createSession(workspace, script.session));
  };
  try {
    const perform = stepActions(
      () => driver!,
      provider,
      () => sessionId,
      workspace,
    );
    // The steps are parsed as they are played and only their kinds kept, so that a long script
    // is never held whole.
    const kinds: string[] = [];
    const interned = new Map<string, string>();
    const atStep = (i: number) => `timeline[${i}] (${kinds[i]})`;
    const gates = new GatesLeftClosed();
    const stoppedAt = await playSteps(
      (function* (): Generator<Step> {
        yield ['start-up (hello, session.create)', start];
        for (const step of script.timeline) {
          kinds.push(interned.get(step.step) ?? interned.set(step.step, step.step).get(step.step)!);
          gates.note(step);
          yield [atStep(kinds.length - 1), () => perform(step)];
        }
        yield [`the final settle${gates.named()}`, () => driver!.idle(sessionId)];
      })(),
    );
    const reported = stoppedAt?.notDriven
      ? { failures: [], diagnostics: [] }
      : await reportedProblems(driver, sessionId);
    return {
      runtime,
      turns,
      unanswered: provider.unexpected,
      unreadable: provider.unreadable,
      unused: unusedProviderSteps(kinds, provider.unconsumed).map(atStep),
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

/**
 * The gates the script's provider turns call and no step of it opens: a runtime blocked on one
 * cannot settle, which the step that waits says, naming them.
 */
class GatesLeftClosed {
  private readonly closed = new Set<string>();

  note(step: TimelineStep): void {
    if (step.step === 'open-gate') this.closed.delete(step.gate);
    if (step.step !== 'provider-tool-calls') return;
    for (const call of step.calls) {
      const name = call.name === 'gate' ? call.input?.name : undefined;
      if (typeof name === 'string') this.closed.add(name);
    }
  }

  named(): string {
    const names = [...this.closed].map((name) => `"${name}"`);
    return names.length === 0 ? '' : ` (the script never opens gate ${names.join(', ')}, which a call blocks on)`;
  }
}

/** A step of the replay, named for the report should the runtime fail it. */
type Step = [at: string, run: () => Promise<unknown> | unknown];

/**
 * Runs the steps in order; a runtime that fails one ends the replay there. Each step that waits
 * on the runtime ends with a turn of the event loop: a runtime driven in process may otherwise
 * keep it busy with promise jobs alone, and what only the event loop frees (objects held by
 * WeakRefs and finalization registries, which fetch uses) would pile up for the whole replay.
 */
async function playSteps(steps: Iterable<Step>): Promise<ReplayOutcome['stoppedAt']> {
  for (const [at, run] of steps) {
    try {
      const waited = run();
      if (!(waited instanceof Promise)) continue;
      await waited;
      await new Promise((resolve) => setImmediate(resolve));
    } catch (error) {
      if (!isRuntimeFault(error)) throw error;
      return { at, reason: error.message, notDriven: asNotDriven(error) !== undefined };
    }
  }
  return undefined;
}

/**
 * The indices of the provider steps played (their kinds in order) whose turns no request took:
 * turns are taken in order, so the ones left are the last `unconsumed` given.
 */
function unusedProviderSteps(kinds: string[], unconsumed: number): number[] {
  const unused: number[] = [];
  for (let i = kinds.length - 1; i >= 0 && unused.length < unconsumed; i--)
    if (kinds[i]!.startsWith('provider-')) unused.unshift(i);
  return unused;
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

/**
 * The runtime under test failed or misbehaved: a finding to report, not a bug of the kit. A wait
 * it never ended (a gate no call blocks on, a drain that never settles) fails the step waiting.
 */
function isRuntimeFault(error: unknown): error is Error {
  return (
    error instanceof RuntimeReportedError || error instanceof AwaitedStateNotReached || asNotDriven(error) !== undefined
  );
}

/** Where the replay ran differs on every run; projections name it `<replay-dir>` so they compare. */
const REPLAY_DIR = '<replay-dir>';

function maskDirectory(dir: string): (text: string) => string {
  const spellings = [...new Set([realpathSync(dir), resolve(dir)])].sort((a, b) => b.length - a.length);
  return (text) => {
    for (const spelling of spellings) if (text.includes(spelling)) text = text.split(spelling).join(REPLAY_DIR);
    return text;
  };
}

function emptyDirectory(path: string): string {
  if (existsSync(path) && readdirSync(path).length > 0) throw new KitInputError('--keep', `${path} is not empty`);
  mkdirSync(path, { recursive: true });
  return path;
}
