import { lstat, readFile, realpath } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute } from 'node:path';
import { Absent, Unavailable, type ContextSource, type Observation } from '../context-source.js';

export interface InstructionFile {
  path: string;
  content: string;
}

export const INSTRUCTIONS_FILE = 'AGENTS.md';
export const SUPERSESSION = 'These instructions replace all previously loaded ambient instructions.';
export const REVOCATION = 'Previously loaded instructions no longer apply.';

export interface InstructionScope {
  /** The user's global configuration directory. */
  globalDir: string;
  location: string;
  projectRoot: string;
  /** Project discovery is off while this returns true (OPENCODE_DISABLE_PROJECT_CONFIG). */
  projectConfigDisabled: () => boolean;
  /** What the host does just before each read of a file found there; nothing when absent. */
  beforeRead?: BeforeInstructionRead;
}

/**
 * The host's hook just before the runtime reads an instruction file it found there (a fault the kit
 * arms): what it returns, the hook's undoing, runs once the read is over.
 */
export type BeforeInstructionRead = (path: string) => Promise<(() => Promise<void>) | undefined>;

/**
 * The ambient AGENTS.md files as one ordered aggregate: the global file, then the project files
 * from the location up to the project root, nearest first. Nothing outside the root is read.
 */
export function instructionsSource(scope: InstructionScope): ContextSource<InstructionFile[]> {
  const render = (files: InstructionFile[]) =>
    files.map((f) => `Instructions from: ${f.path}\n${f.content}`).join('\n\n');
  return {
    key: 'core/instructions',
    encode: (files) => files.map((f) => ({ path: f.path, content: f.content })),
    decode: (json) => json as unknown as InstructionFile[],
    load: () => loadInstructions(scope),
    baseline: render,
    update: (_previous, files) => `${SUPERSESSION}\n\n${render(files)}`,
    removal: () => REVOCATION,
  };
}

async function loadInstructions(scope: InstructionScope): Promise<Observation<InstructionFile[]>> {
  const files: InstructionFile[] = [];
  for (const candidate of await instructionCandidates(scope)) {
    const found = await readCandidate(candidate, scope.beforeRead);
    if (found === Unavailable) return Unavailable;
    if (found !== Absent) files.push(found);
  }
  return files.length > 0 ? files : Absent;
}

/** Where an instruction file may be, in aggregate order; `root` bounds the project's ones. */
export interface InstructionCandidate {
  path: string;
  root?: string;
}

export async function instructionCandidates(scope: InstructionScope): Promise<InstructionCandidate[]> {
  const candidates: InstructionCandidate[] = [{ path: join(scope.globalDir, INSTRUCTIONS_FILE) }];
  if (scope.projectConfigDisabled()) return candidates;
  return [...candidates, ...(await projectCandidates(scope)).map((path) => ({ path, root: scope.projectRoot }))];
}

/** Directories from the location up to the project root, both canonical; none when outside it. */
async function projectCandidates(scope: InstructionScope): Promise<string[]> {
  const [root, location] = await Promise.all([realpath(scope.projectRoot), realpath(scope.location)]).catch(() => []);
  if (!root || !location || !within(root, location)) return [];
  const dirs: string[] = [];
  for (let dir = location; ; dir = dirname(dir)) {
    dirs.push(join(dir, INSTRUCTIONS_FILE));
    if (dir === root) return dirs;
  }
}

/**
 * A file that is not there is absent; one that is there but cannot be read (it vanished, or its
 * link dangles) is unavailable, so the instructions admitted before stay in force. A link that
 * leads out of the project root is not read at all.
 */
export async function readCandidate(
  { path, root }: InstructionCandidate,
  beforeRead?: BeforeInstructionRead,
): Promise<Observation<InstructionFile>> {
  try {
    await lstat(path);
  } catch {
    return Absent;
  }
  const undo = await beforeRead?.(path);
  try {
    const real = await realpath(path);
    if (root !== undefined && !within(await realpath(root), real)) return Absent;
    return { path, content: await readFile(real, 'utf8') };
  } catch {
    return Unavailable;
  } finally {
    await undo?.();
  }
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
