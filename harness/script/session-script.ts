import { readFileSync } from 'node:fs';
import { isAbsolute, normalize, sep } from 'node:path';
import { KitInputError } from '../input-error.js';
import {
  checkSchema,
  compileSchema,
  inputError,
  type JsonInput,
  MAX_JSON_DEPTH,
  readJsonInput,
} from '../input/json-input.js';
import { displayPath, readInputText } from '../input/input-file.js';
import { KIT_MODEL } from '../provider/kit-models.js';
import { loadRecording } from '../provider/recording.js';
import { dialects } from '../provider/wire/dialect.js';
import type { ScriptedToolCall } from '../provider/scripted-turn.js';
import { kitPath } from '../kit-root.js';
import { timelineLayout, type TimelineLayout } from './timeline-text.js';

/** One step of a session script's timeline; `session-script.schema.json` documents each. */
export type TimelineStep =
  | { step: 'prompt'; text: string; delivery?: 'steer' | 'queue'; id?: string; resume?: boolean }
  | { step: 'clock'; now: string }
  | { step: 'run' | 'wake' | 'settle' }
  | { step: 'wait-for-gate' | 'open-gate'; gate: string }
  | { step: 'write-file'; path: string; content: string }
  | { step: 'provider-text'; text: string; chunks?: number }
  | { step: 'provider-tool-calls'; calls: ScriptedToolCall[] }
  | { step: 'provider-recording'; name: string };

/** A session script with its defaults filled in. */
export interface SessionScript {
  /** The file, as the user named it. */
  file: string;
  title: string;
  now: string;
  model: string;
  profile: string;
  dialect: string;
  session: string;
  timeline: Timeline;
}

type ScriptStep = ScriptFile['timeline'][number];

interface ScriptFile {
  title?: string;
  runtime?: { now?: string; model?: string };
  profile?: string;
  dialect?: string;
  session?: string;
  timeline: (
    | TimelineStep
    | { step: 'provider-tool-calls'; calls: (Omit<ScriptedToolCall, 'id'> & { id?: string })[] }
  )[];
}

const SCHEMA = new URL('./session-script.schema.json', import.meta.url);
const validate = compileSchema(SCHEMA);
let maxSteps: number | undefined;

/** The schema's limit on a timeline's length, which a check of one step at a time does not see. */
function timelineLimit(): number {
  maxSteps ??= (JSON.parse(readFileSync(SCHEMA, 'utf8')) as { properties: { timeline: { maxItems: number } } })
    .properties.timeline.maxItems;
  return maxSteps;
}

/**
 * Reads and checks a session script: its shape against the schema, then what the schema cannot
 * say (a file path that stays in the workspace, a recording that exists and parses).
 */
export function readSessionScript(path: string, recordings = kitPath('recordings')): SessionScript {
  const text = readInputText(path);
  const { input, script, timeline } =
    readStepwise({ file: displayPath(path), text, value: undefined }) ?? readWhole(path);
  const dialect = script.dialect ?? 'openai-chat';
  if (!Object.hasOwn(dialects, dialect)) {
    throw inputError(
      input,
      ['dialect'],
      `"${dialect}" is not a dialect the kit knows (${Object.keys(dialects).join(', ')})`,
    );
  }
  const files = new Map<string, number>();
  for (const [i, step] of timeline.checked()) {
    if (step.step === 'write-file') {
      const problem = writeFileProblem(step.path, files);
      if (problem) throw inputError(input, ['timeline', i, 'path'], problem);
      files.set(normalize(step.path), i);
    }
    if (step.step === 'provider-recording') {
      try {
        loadRecording(recordings, dialect, step.name);
      } catch (error) {
        if (error instanceof KitInputError) throw inputError(input, ['timeline', i, 'name'], error.message);
        throw error;
      }
    }
  }
  return {
    file: input.file,
    title: script.title ?? '',
    now: new Date(script.runtime?.now ?? '2026-01-15T09:00:00.000Z').toISOString(),
    model: script.runtime?.model ?? KIT_MODEL,
    profile: script.profile ?? 'core',
    dialect,
    session: script.session ?? 's1',
    timeline,
  };
}

interface ReadScript {
  input: JsonInput;
  /** The script's fields; its timeline is read through `timeline`. */
  script: Omit<ScriptFile, 'timeline'>;
  timeline: Timeline;
}

/**
 * Parses and checks the script a step at a time, so that a long one is never held whole: only
 * its text is kept, and the steps are parsed again as they are played. Anything wrong with it
 * gives `undefined`, and the script is read whole to say what.
 */
function readStepwise(input: JsonInput): ReadScript | undefined {
  const { text } = input;
  let layout: TimelineLayout | undefined;
  let head: ScriptFile;
  try {
    layout = timelineLayout(text);
    if (!layout || layout.spans.length / 2 > timelineLimit() || layout.deepest > MAX_JSON_DEPTH - 2) return undefined;
    head = JSON.parse(`${text.slice(0, layout.array[0])}[]${text.slice(layout.array[1])}`) as ScriptFile;
  } catch {
    return undefined;
  }
  const { spans } = layout;
  const one: ScriptStep[] = [];
  const shape = { ...head, timeline: one };
  const check = validate();
  if (!check(shape)) return undefined;
  // Only the steps the checks after the schema look at are kept from this pass.
  const checked: [number, ScriptStep][] = [];
  for (let i = 0; i < spans.length; i += 2) {
    try {
      one[0] = JSON.parse(text.slice(spans[i], spans[i + 1])) as ScriptStep;
    } catch {
      return undefined;
    }
    if (!check(shape)) return undefined;
    if (one[0].step === 'write-file' || one[0].step === 'provider-recording') checked.push([i / 2, one[0]]);
  }
  const stepAt = (i: number) => JSON.parse(text.slice(spans[2 * i], spans[2 * i + 1])) as ScriptStep;
  return { input, script: head, timeline: new Timeline(spans.length / 2, stepAt, checked) };
}

/** Reads the script whole: a script that is wrong is reported by line and field. */
function readWhole(path: string): ReadScript {
  const input = readJsonInput(path);
  const { timeline, ...script } = checkSchema<ScriptFile>(input, validate);
  const checked = timeline.map((step, i): [number, ScriptStep] => [i, step]);
  return { input, script, timeline: new Timeline(timeline.length, (i) => timeline[i]!, checked) };
}

/** A script's steps, taken one at a time with their defaults filled in. */
export class Timeline implements Iterable<TimelineStep> {
  constructor(
    readonly length: number,
    private readonly stepAt: (index: number) => ScriptStep,
    private readonly toCheck: [number, ScriptStep][],
  ) {}

  /** The steps, by index, that the checks after the schema need to see (or all of them). */
  checked(): [number, ScriptStep][] {
    return this.toCheck.splice(0);
  }

  *[Symbol.iterator](): Generator<TimelineStep> {
    let calls = 0;
    for (let i = 0; i < this.length; i++) {
      const step = this.stepAt(i);
      if (step.step !== 'provider-tool-calls') yield step as TimelineStep;
      else {
        yield {
          ...step,
          calls: step.calls.map((call) => {
            calls += 1;
            return { ...call, id: call.id ?? `call_${calls}` };
          }),
        };
      }
    }
  }
}
/** The longest file name most file systems take, in bytes. */
const MAX_NAME_BYTES = 255;

/**
 * Why a `write-file` path cannot be written in the workspace, given the files the steps before
 * wrote (by normalised path, with their step): it must name a file, inside the workspace, that
 * is neither below nor above another file of the script.
 */
function writeFileProblem(path: string, written: ReadonlyMap<string, number>): string | undefined {
  const normal = normalize(path);
  if (isAbsolute(path) || normal === '..' || normal.startsWith(`..${sep}`)) return 'must stay inside the workspace';
  if (path.includes('\0')) return 'must not contain a NUL byte';
  if (normal === '.' || normal === `.${sep}` || path.endsWith('/')) return 'must name a file, not a directory';
  const names = normal.split(sep);
  if (names.some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES))
    return `has a name longer than ${MAX_NAME_BYTES} bytes`;
  const parent = names.slice(0, -1).findIndex((_, n) => written.has(names.slice(0, n + 1).join(sep)));
  if (parent !== -1)
    return `is below ${names.slice(0, parent + 1).join(sep)}, a file timeline[${written.get(names.slice(0, parent + 1).join(sep))}] wrote`;
  const below = [...written].find(([file]) => file.startsWith(`${normal}${sep}`));
  if (below) return `is a directory: timeline[${below[1]}] wrote ${below[0]} in it`;
  return undefined;
}
