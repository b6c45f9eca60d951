/** The add/update/delete patch format of `apply_patch`, parsed completely before anything changes. */

export type PatchOperation =
  | { op: 'add'; path: string; content: string }
  | { op: 'update'; path: string; chunks: PatchChunk[] }
  | { op: 'delete'; path: string };

/** One hunk of an update: the lines it expects, and what replaces them. */
export interface PatchChunk {
  before: string[];
  after: string[];
}

export class PatchInvalid extends Error {
  constructor(line: number, why: string) {
    super(`invalid patch at line ${line}: ${why}`);
    this.name = 'PatchInvalid';
  }
}

const HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;

export function parsePatch(text: string): PatchOperation[] {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  if (lines[0] !== '*** Begin Patch') throw new PatchInvalid(1, 'expected "*** Begin Patch"');
  if (lines.at(-1) !== '*** End Patch') throw new PatchInvalid(lines.length, 'expected "*** End Patch"');
  const operations: PatchOperation[] = [];
  let i = 1;
  while (i < lines.length - 1) {
    const header = HEADER.exec(lines[i]!);
    if (!header) throw new PatchInvalid(i + 1, `expected a file header, found "${lines[i]}"`);
    const [, kind, path] = header as unknown as [string, 'Add' | 'Update' | 'Delete', string];
    const body: string[] = [];
    for (i++; i < lines.length - 1 && !HEADER.test(lines[i]!); i++) body.push(lines[i]!);
    const at = i - body.length;
    if (kind === 'Delete') {
      if (body.length > 0) throw new PatchInvalid(at, 'a deleted file has no body');
      operations.push({ op: 'delete', path });
    } else if (kind === 'Add') {
      body.forEach((line, n) => {
        if (!line.startsWith('+')) throw new PatchInvalid(at + n, 'every line of an added file starts with "+"');
      });
      operations.push({ op: 'add', path, content: body.map((line) => `${line.slice(1)}\n`).join('') });
    } else {
      operations.push({ op: 'update', path, chunks: parseChunks(body, at) });
    }
  }
  if (operations.length === 0) throw new PatchInvalid(1, 'the patch changes nothing');
  return operations;
}

function parseChunks(body: string[], at: number): PatchChunk[] {
  const chunks: PatchChunk[] = [];
  let chunk: PatchChunk | undefined;
  body.forEach((line, n) => {
    if (line.startsWith('@@')) {
      chunk = { before: [], after: [] };
      chunks.push(chunk);
      return;
    }
    if (!chunk) throw new PatchInvalid(at + n, 'an update hunk starts with "@@"');
    const [mark, rest] = [line[0], line.slice(1)];
    if (mark === ' ' || mark === '-') chunk.before.push(rest);
    if (mark === ' ' || mark === '+') chunk.after.push(rest);
    if (mark !== ' ' && mark !== '-' && mark !== '+')
      throw new PatchInvalid(at + n, 'a hunk line starts with " ", "-" or "+"');
  });
  if (chunks.length === 0 || chunks.some((c) => c.before.length === 0))
    throw new PatchInvalid(at, 'an update needs hunks with lines to find');
  return chunks;
}

/** Applies an update's hunks in order; throws when a hunk's lines are not found. */
export function applyChunks(content: string, chunks: PatchChunk[], path: string): string {
  const lines = content.split('\n');
  let from = 0;
  for (const chunk of chunks) {
    const at = findLines(lines, chunk.before, from);
    if (at < 0)
      throw new Error(`${path}: the lines of a hunk were not found: ${JSON.stringify(chunk.before.join('\n'))}`);
    lines.splice(at, chunk.before.length, ...chunk.after);
    from = at + chunk.after.length;
  }
  return lines.join('\n');
}

function findLines(lines: string[], wanted: string[], from: number): number {
  for (let i = from; i + wanted.length <= lines.length; i++) {
    if (wanted.every((line, k) => lines[i + k] === line)) return i;
  }
  return -1;
}
