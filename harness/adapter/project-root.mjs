import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The kit's project root as a runtime that knows a project by its Git repository finds it: a
 * `projectRoot` the kit gives is made a Git repository (`git init`), unless it is one already.
 * The kit's workspaces are no repositories otherwise, and such a runtime would take every one of
 * them for the same project, or for none. A runtime that names a project after its repository's
 * first commit finds none in a new repository: `rootCommit` records an empty one, its message
 * naming the root so that no two projects share it, and leaves the files uncommitted.
 */
export function markProjectRoot(root, { rootCommit = false } = {}) {
  if (!root || existsSync(join(root, '.git'))) return;
  const git = (...args) => execFileSync('git', ['-C', root, ...args], { stdio: 'ignore' });
  git('init', '--quiet');
  if (rootCommit)
    git(
      '-c',
      'user.name=kit',
      '-c',
      'user.email=kit@localhost',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      `project ${root}`,
    );
}

/** The file that marks the kit's project root for a runtime configured to bound its discovery at a marker file. */
export const PROJECT_ROOT_MARKER = '.kit-project-root';

/**
 * The kit's project root as a runtime bounding instruction discovery at a configured marker finds
 * it (Codex's `project_root_markers`, Gemini CLI's `context.memoryBoundaryMarkers`): the marker file
 * at the root, with no repository whose state the runtime would also tell the model.
 */
export function markProjectRootFile(root) {
  if (root) writeFileSync(join(root, PROJECT_ROOT_MARKER), '');
}
