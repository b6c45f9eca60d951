import { isAbsolute, normalize, sep } from 'node:path';
import { KitInputError } from '../input-error.js';
import { checkSchema, compileSchema, inputError, readJsonInput } from '../input/json-input.js';
import { KIT_MODEL } from '../provider/kit-models.js';
import { loadRecording } from '../provider/recording.js';
import { dialects } from '../provider/wire/dialect.js';
import type { ScriptedToolCall } from '../provider/scripted-turn.js';
import { kitPath } from '../kit-root.js';
import { timelineSpans } from './timeline-text.js';

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

const validate = compileSchema(new URL('./session-script.schema.json', import.meta.url));

/**
 * Reads and checks a session script: its shape against the schema, then what the schema cannot
 * say (a file path that stays in the workspace, a recording that exists and parses).
 */
export function readSessionScript(path: string, recordings = kitPath('recordings')): SessionScript {
  const input = readJsonInput(path);
  const script = checkSchema<ScriptFile>(input, validate);
  const dialect = script.dialect ?? 'openai-chat';
  if (!Object.hasOwn(dialects, dialect)) {
    throw inputError(
      input,
      ['dialect'],
      `"${dialect}" is not a dialect the kit knows (${Object.keys(dialects).join(', ')})`,
    );
  }
  const files = new Map<string, number>();
  script.timeline.forEach((step, i) => {
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
  });
  return {
    file: input.file,
    title: script.title ?? '',
    now: new Date(script.runtime?.now ?? '2026-01-15T09:00:00.000Z').toISOString(),
    model: script.runtime?.model ?? KIT_MODEL,
    profile: script.profile ?? 'core',
    dialect,
    session: script.session ?? 's1',
    timeline: timelineOf(input.text, script.timeline.length),
  };
}

/** Only the text is kept, not its parsed steps (300,000 of them, say): they are parsed again one at a time. */
function timelineOf(text: string, steps: number): Timeline {
  const spans = timelineSpans(text);
  if (spans.length !== 2 * steps) throw new Error(`the timeline's ${steps} steps were found as ${spans.length / 2}`);
  return new Timeline(text, spans);
}

/** A script's steps, parsed from its text one at a time as they are taken, with their defaults. */
export class Timeline implements Iterable<TimelineStep> {
  constructor(
    private readonly text: string,
    private readonly spans: Uint32Array,
  ) {}

  get length(): number {
    return this.spans.length / 2;
  }

  *[Symbol.iterator](): Generator<TimelineStep> {
    const { text, spans } = this;
    let calls = 0;
    for (let i = 0; i < spans.length; i += 2) {
      const step = JSON.parse(text.slice(spans[i], spans[i + 1])) as ScriptStep;
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
