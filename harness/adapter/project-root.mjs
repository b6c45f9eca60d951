import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
