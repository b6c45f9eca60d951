import { join } from 'node:path';
import { Given, When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';

const envTable = (table: DataTable) => Object.fromEntries(table.hashes().map((row) => [row.name!, row.value!]));

Given(
  'the host overlay for PTYs in the workspace {string} sets:',
  async function (this: KitWorld, workspace: string, table: DataTable) {
    const env = envTable(table);
    this.overlayValues.push(...Object.values(env));
    await this.driver.setPtyOverlay(this.workspace(workspace), env);
  },
);

When(
  /^a PTY is requested in the workspace "([^"]+)"(?: working in "([^"]+)")?( from a standalone server)? with:$/,
  async function (
    this: KitWorld,
    workspace: string,
    cwd: string | undefined,
    standalone: string | undefined,
    table: DataTable,
  ) {
    const location = this.workspace(workspace);
    const server = standalone ? 'standalone' : 'hosted';
    const env = envTable(table);
    const view = await this.driver.ptyEnvironment({ location, env, server, ...(cwd ? { cwd } : {}) });
    this.pty = { view, requested: [...Object.values(env), ...this.overlayValues] };
  },
);

function pty(world: KitWorld) {
  return requestedPty(world).view;
}

function requestedPty(world: KitWorld) {
  const requested = world.pty;
  if (!requested) throw new Error('the scenario requested no PTY yet');
  return requested;
}

Then('the PTY environment has:', function (this: KitWorld, table: DataTable) {
  const env = pty(this).env;
  expect(Object.fromEntries(Object.keys(envTable(table)).map((name) => [name, env[name]]))).to.deep.equal(
    envTable(table),
  );
});

Then('the PTY environment has none of {string}', function (this: KitWorld, names: string) {
  const env = pty(this).env;
  for (const name of names.split(/,\s*/)) expect(env, `the PTY environment`).to.not.have.property(name);
});

Then('the PTY environment forces {string} over the caller and the overlay', function (this: KitWorld, names: string) {
  const {
    view: { env },
    requested: overridden,
  } = requestedPty(this);
  for (const name of names.split(/,\s*/)) {
    expect(env[name], `${name} in the PTY environment`).to.be.a('string').and.not.equal('');
    expect(overridden, `${name} is forced`).to.not.include(env[name]);
  }
});

Then(
  'the PTY works in {string} of the workspace {string}, as the overlay observed',
  function (this: KitWorld, cwd: string, workspace: string) {
    const expected = join(this.workspace(workspace), cwd);
    expect([pty(this).cwd, pty(this).env.KIT_PTY_CWD]).to.deep.equal([expected, expected]);
  },
);
