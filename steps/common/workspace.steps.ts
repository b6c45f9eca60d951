import { existsSync, readFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join, dirname } from 'node:path';
import { When, Then, Given } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { plant } from '../support/workspaces.js';

/** Files the scenario plants in its workspaces and in the home configuration directory. */

function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

Then(
  '{string} in the workspace of {string} has {int} line(s)',
  function (this: KitWorld, file: string, name: string, count: number) {
    expect(lines(join(this.session(name).workspace, file))).to.have.length(count);
  },
);

Given(
  'a session {string} working in {string} of the project {string}',
  async function (this: KitWorld, name: string, location: string, project: string) {
    await this.createSession(name, join(project, location), project);
  },
);

Given(
  'the file {string} in the workspace {string} {file-content}',
  function (this: KitWorld, file: string, workspace: string, content: string | Buffer) {
    plant(join(this.workspace(workspace), file), content);
  },
);

When(
  'the file {string} in the workspace {string} is deleted',
  function (this: KitWorld, file: string, workspace: string) {
    rmSync(join(this.workspace(workspace), file), { recursive: true, force: true });
  },
);

/**
 * A read that fails while the path is still there: a link to itself stands where the file was, so
 * every read fails (ELOOP) whatever the runtime reads with. A directory would not do: a runtime that
 * lists instruction files as regular files sees no file at all. A runtime may take the link as
 * unavailable or as removed: the seeds leave that open (`instructions.unreadable`), and the steps
 * after it accept either.
 */
When(
  'the file {string} in the workspace {string} cannot be read',
  function (this: KitWorld, file: string, workspace: string) {
    const path = join(this.workspace(workspace), file);
    rmSync(path, { recursive: true, force: true });
    symlinkSync(basename(path), path);
  },
);

/**
 * A file that vanishes while it is read (INS-07): the runtime finds it there, and its next read of
 * it finds it gone, for real (capability fault-injection: it moves the file aside for that read and
 * back after it). Unlike a link to itself, this leaves the runtime no reading to choose: `000` makes
 * a vanished read unavailable. A black box cannot time that race; the runtime arms it.
 */
When(
  'the file {string} in the workspace {string} vanishes while the runtime next reads it',
  async function (this: KitWorld, file: string, workspace: string) {
    await this.driver.call('fault.instruction-file-reads', { path: join(this.workspace(workspace), file) });
  },
);

Given(
  'the file {string} in the workspace {string} is a link to {string}',
  function (this: KitWorld, file: string, workspace: string, target: string) {
    const path = join(this.workspace(workspace), file);
    rmSync(path, { recursive: true, force: true });
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
  },
);
