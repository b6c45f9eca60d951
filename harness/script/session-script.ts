import { isAbsolute, normalize } from 'node:path';
import { KitInputError } from '../input-error.js';
import { checkSchema, compileSchema, inputError, readJsonInput } from '../input/json-input.js';
import { loadRecording } from '../provider/recording.js';
import { dialects } from '../provider/wire/dialect.js';
import type { ScriptedToolCall } from '../provider/scripted-turn.js';
import { kitPath } from '../kit-root.js';

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
  timeline: TimelineStep[];
}

interface ScriptFile {
  title?: string;
  runtime?: { now?: string; model?: string };
  profile?: string;
  dialect?: string;
  session?: string;
  timeline: (TimelineStep | { step: 'provider-tool-calls'; calls: (Omit<ScriptedToolCall, 'id'> & { id?: string })[] })[];
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
  if (!dialects[dialect]) {
    throw inputError(input, ['dialect'], `"${dialect}" is not a dialect the kit knows (${Object.keys(dialects).join(', ')})`);
  }
  let calls = 0;
  const timeline = script.timeline.map((step, i): TimelineStep => {
    if (step.step === 'write-file' && (isAbsolute(step.path) || normalize(step.path).startsWith('..'))) {
      throw inputError(input, ['timeline', i, 'path'], 'must stay inside the workspace');
    }
    if (step.step === 'provider-recording') {
      try {
        loadRecording(recordings, dialect, step.name);
      } catch (error) {
        if (error instanceof KitInputError) throw inputError(input, ['timeline', i, 'name'], error.message);
        throw error;
      }
    }
    if (step.step !== 'provider-tool-calls') return step as TimelineStep;
    return {
      ...step,
      calls: step.calls.map((call) => {
        calls += 1;
        return { ...call, id: call.id ?? `call_${calls}` };
      }),
    };
  });
  return {
    file: input.file,
    title: script.title ?? '',
    now: new Date(script.runtime?.now ?? '2026-01-15T09:00:00.000Z').toISOString(),
    model: script.runtime?.model ?? 'kit-model',
    profile: script.profile ?? 'core',
    dialect,
    session: script.session ?? 's1',
    timeline,
  };
}
