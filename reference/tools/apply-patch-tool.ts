import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ToolFailure, type Tool } from './tool.js';
import { PathRefused, resolveInLocation } from './location-paths.js';
import { applyChunks, parsePatch, type PatchOperation } from './patch.js';

/** `external`: the target lies outside the location and needs the external_directory authority. */
type Resolved = PatchOperation & { target: string; external: boolean };
const done = ({ op, path }: Resolved) => ({ op, path });

/**
 * `apply_patch`: every hunk is parsed and every target resolved, the external directories among
 * them approved once for the whole patch, and every approved target checked, before the first
 * change. Operations then commit in order; a failure at that point leaves the earlier ones
 * applied (no rollback), and the result reports exactly which were applied, which failed and
 * which were not tried.
 */
export const applyPatchTool: Tool = {
  name: 'apply_patch',
  description:
    'Applies a patch ("*** Begin Patch" ... "*** End Patch") that adds, updates or deletes files in the working directory.',
  parameters: { type: 'object', properties: { patch: { type: 'string' } }, required: ['patch'] },
  async execute(input, { location, authorize }) {
    const operations = parsePatch(String(input.patch ?? '')).map((operation) => resolveTarget(location, operation));
    const external = [...new Set(operations.filter((o) => o.external).map((o) => dirname(o.target)))];
    if (external.length > 0 && !(await authorize('external_directory'))) {
      throw new Error(`editing outside the working directory was not approved: ${external.join(', ')}`);
    }
    for (const operation of operations) await preflight(operation);
    const applied: Resolved[] = [];
    for (const [i, operation] of operations.entries()) {
      try {
        await commit(operation);
        applied.push(operation);
      } catch (error) {
        const report = {
          applied: applied.map(done),
          failed: { ...done(operation), message: error instanceof Error ? error.message : String(error) },
          notApplied: operations.slice(i + 1).map(done),
        };
        throw new ToolFailure(`patch partly applied: ${JSON.stringify(report)}`, report);
      }
    }
    return { text: applied.map((o) => `${o.op} ${o.path}`).join('\n'), structured: { applied: applied.map(done) } };
  },
};

function resolveTarget(location: string, operation: PatchOperation): Resolved {
  try {
    return { ...operation, target: resolveInLocation(location, operation.path), external: false };
  } catch (error) {
    if (!(error instanceof PathRefused)) throw error;
    return { ...operation, target: resolve(location, operation.path), external: true };
  }
}

async function preflight(operation: Resolved): Promise<void> {
  const exists = existsSync(operation.target);
  if (operation.op === 'add') {
    if (exists) throw new Error(`${operation.path}: already exists`);
    return;
  }
  if (!exists || !statSync(operation.target).isFile()) throw new Error(`${operation.path}: no such file`);
  if (operation.op === 'update')
    applyChunks(await readFile(operation.target, 'utf8'), operation.chunks, operation.path);
}

async function commit(operation: Resolved): Promise<void> {
  switch (operation.op) {
    case 'add':
      await mkdir(dirname(operation.target), { recursive: true });
      await writeFile(operation.target, operation.content, { flag: 'wx' });
      return;
    case 'update':
      await writeFile(
        operation.target,
        applyChunks(await readFile(operation.target, 'utf8'), operation.chunks, operation.path),
      );
      return;
    case 'delete':
      await rm(operation.target);
      return;
  }
}
