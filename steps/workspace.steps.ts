import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Given, When } from '@cucumber/cucumber';
import type { KitWorld } from './support/world.js';

/** Files the scenario plants in its workspaces and in the home configuration directory. */

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  rmSync(path, { recursive: true, force: true });
  writeFileSync(path, content);
}

Given(
  'a session {string} working in {string} of the project {string}',
  async function (this: KitWorld, name: string, location: string, project: string) {
    await this.createSession(name, join(project, location), project);
  },
);

Given('the global instructions say {string}', function (this: KitWorld, text: string) {
  write(join(this.workspace('home'), 'AGENTS.md'), text);
});

Given(
  'the file {string} in the workspace {string} says {string}',
  function (this: KitWorld, file: string, workspace: string, text: string) {
    write(join(this.workspace(workspace), file), text);
  },
);

// Files as editors save them: trailing whitespace a runtime must neither trim nor add to.
Given(
  'the file {string} in the workspace {string} says {string}, ending with a newline',
  function (this: KitWorld, file: string, workspace: string, text: string) {
    write(join(this.workspace(workspace), file), `${text}\n`);
  },
);

When(
  'the file {string} in the workspace {string} is deleted',
  function (this: KitWorld, file: string, workspace: string) {
    rmSync(join(this.workspace(workspace), file), { recursive: true, force: true });
  },
);

/**
 * A read that fails while the path is still there: a directory stands where the file was. (A link
 * that dangles may be read as unavailable or as removed; the seeds leave that open.)
 */
When(
  'the file {string} in the workspace {string} cannot be read',
  function (this: KitWorld, file: string, workspace: string) {
    const path = join(this.workspace(workspace), file);
    rmSync(path, { force: true });
    mkdirSync(path, { recursive: true });
  },
);

When('the global instructions are deleted', function (this: KitWorld) {
  rmSync(join(this.workspace('home'), 'AGENTS.md'), { force: true });
});

Given(
  'the file {string} in the workspace {string} is a link to {string}',
  function (this: KitWorld, file: string, workspace: string, target: string) {
    const path = join(this.workspace(workspace), file);
    rmSync(path, { recursive: true, force: true });
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
  },
);
