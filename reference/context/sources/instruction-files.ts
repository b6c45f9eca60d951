import { lstat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { ContextSource } from '../context-source.js';
import {
  instructionCandidates,
  readCandidate,
  type BeforeInstructionRead,
  type InstructionCandidate,
  type InstructionFile,
  type InstructionScope,
} from './instructions.js';

/** The checkpoint design's wording for one instruction file that no longer applies. */
export const FILE_REVOCATION = 'Instructions from {path} no longer apply.';

/**
 * The checkpoint design: each instruction file is a component of its own, so a change restates
 * that file alone, superseding its previous version, and a removal revokes that file alone.
 */
export async function instructionFileSources(scope: InstructionScope): Promise<ContextSource<InstructionFile>[]> {
  return sourcesFor(await instructionCandidates(scope), scope.beforeRead);
}

/** Nested files found by reading come after the ambient ones, bounded by the same project root. */
export function nestedInstructionSources(
  paths: string[],
  projectRoot: string,
): Promise<ContextSource<InstructionFile>[]> {
  return sourcesFor(paths.map((path) => ({ path, root: projectRoot })));
}

async function sourcesFor(
  candidates: InstructionCandidate[],
  beforeRead?: BeforeInstructionRead,
): Promise<ContextSource<InstructionFile>[]> {
  const present = [];
  for (const candidate of candidates) {
    if (
      await lstat(candidate.path).then(
        () => true,
        () => false,
      )
    )
      present.push(candidate);
  }
  return present.map((candidate) => ({
    key: `core/instructions/${createHash('sha256').update(candidate.path).digest('hex').slice(0, 16)}`,
    encode: (file) => ({ path: file.path, content: file.content }),
    decode: (json) => json as unknown as InstructionFile,
    load: () => readCandidate(candidate, beforeRead),
    baseline: (file) => `Instructions from: ${file.path}\n${file.content}`,
    update: (_previous, file) =>
      `Instructions from: ${file.path} (this replaces its previous version)\n${file.content}`,
    removal: (file) => FILE_REVOCATION.replace('{path}', file.path),
  }));
}
