import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { GherkinDocument, Pickle } from '@cucumber/messages';
import type { RuntimeDriver } from '../driver/runtime-driver.js';
import type { FakeProvider } from '../provider/fake-provider.js';
import type { RuntimeSelection } from '../runtime-target.js';
import { suiteSettings } from '../suite/suite-settings.js';
import { KIT_ROOT } from '../kit-root.js';
import { checkSchema, compileSchema, readJsonInput } from '../input/json-input.js';
import { failureLines } from '../report/summary.js';
import { firstCells, stableIdOf } from '../suite/scenario-id.js';

export const BUNDLE_FORMAT = 'kit-repro-bundle/1';

/** `bundle.json`: what failed, against which runtime, and the sessions whose state sits next to it. */
export interface ReproBundle {
  format: typeof BUNDLE_FORMAT;
  scenario: { id: string; name: string; uri: string; line: number; rules: string[] };
  runtime: RuntimeSelection;
  failure: string;
  sessions: { name: string; id: string }[];
  kept?: string;
}

/** What a failing scenario holds when its After hook runs: the World, seen from the kit. */
export interface FailingScenario {
  driver?: RuntimeDriver;
  provider: FakeProvider;
  sessions: ReadonlyMap<string, { id: string }>;
  dir: string;
}

/**
 * Writes the repro bundle of a failing scenario below `root`: one directory per stable ID (an
 * example row's below its outline's) holding everything needed to read the failure without rerunning it.
 */
export async function writeReproBundle(
  root: string,
  { pickle, gherkinDocument }: { pickle: Pickle; gherkinDocument: GherkinDocument },
  failure: string,
  scenario: FailingScenario,
): Promise<void> {
  const tags = pickle.tags.map((tag) => tag.name);
  const cells = firstCells(gherkinDocument);
  const { id } = stableIdOf(pickle, (row) => cells.get(row));
  const line = pickle.location?.line ?? 0;
  const dir = join(root, id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const message = failureLines(failure).join('\n').trim();
  const sessions = [...scenario.sessions].map(([name, handle]) => ({ name, id: handle.id }));
  const bundle: ReproBundle = {
    format: BUNDLE_FORMAT,
    scenario: {
      id,
      name: pickle.name,
      uri: pickle.uri,
      line,
      rules: tags.flatMap((tag) => /^@([A-Z]{3}-\d{2})$/.exec(tag)?.[1] ?? []),
    },
    runtime: portable(suiteSettings().runtime),
    failure: message,
    sessions,
    kept: scenario.dir,
  };
  const write = (name: string, value: unknown) => writeFileSync(join(dir, name), `${JSON.stringify(value, null, 2)}\n`);
  write('bundle.json', bundle);
  writeFileSync(join(dir, 'failure.txt'), `${message}\n`);
  write('requests.json', scenario.provider.requests);
  for (const [session, observed] of Object.entries(await observeSessions(scenario))) {
    mkdirSync(join(dir, 'sessions', session), { recursive: true });
    for (const [name, value] of Object.entries(observed)) write(join('sessions', session, `${name}.json`), value);
  }
}

/** The durable state of each of the scenario's sessions, by session name, then by what was read. */
export async function observeSessions(
  scenario: Pick<FailingScenario, 'driver' | 'sessions'>,
): Promise<Record<string, Record<string, unknown>>> {
  const observe = observer(scenario.driver);
  const observed: Record<string, Record<string, unknown>> = {};
  for (const [name, { id }] of scenario.sessions) {
    observed[name] = {};
    for (const [what, read] of Object.entries(OBSERVATIONS))
      observed[name][what] = await observe((driver) => read(driver, id));
  }
  return observed;
}

const OBSERVATIONS: Record<string, (driver: RuntimeDriver, sessionId: string) => Promise<unknown>> = {
  history: (driver, id) => driver.history(id),
  events: (driver, id) => driver.events(id),
  inbox: (driver, id) => driver.inbox(id),
  failures: (driver, id) => driver.failures(id),
};

/** Reads through the driver until one read fails; a broken runtime is not asked again. */
function observer(driver: RuntimeDriver | undefined) {
  let broken = driver ? undefined : 'the runtime never started';
  return async (read: (driver: RuntimeDriver) => Promise<unknown>): Promise<unknown> => {
    if (broken) return { unavailable: broken };
    try {
      return await read(driver!);
    } catch (error) {
      broken = error instanceof Error ? error.message : String(error);
      return { unavailable: broken };
    }
  };
}

/** A module inside the kit is named relative to it, so a bundle still replays from another clone. */
function portable(selection: RuntimeSelection): RuntimeSelection {
  if (!('module' in selection)) return selection;
  const inside = relative(KIT_ROOT, selection.module);
  return { module: inside.startsWith('..') ? selection.module : inside };
}

const validate = compileSchema(new URL('./repro-bundle.schema.json', import.meta.url));

/** Reads a bundle given as its directory or its `bundle.json`. */
export function readReproBundle(path: string): ReproBundle {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'bundle.json') : path;
  return checkSchema<ReproBundle>(readJsonInput(file), validate);
}
