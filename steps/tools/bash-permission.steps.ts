import { Given, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { toolCall as call, toolCallsTurn } from '../../harness/provider/turns.js';
import { NOT_APPLICABLE } from '../../harness/report/scenario-results.js';
import { withWorkspaces } from '../support/workspaces.js';
import type { KitWorld } from '../support/world.js';

/** Scripts a call of the runtime's declared shell tool; without one (or without a workdir field when one is wanted), not applicable. */
function callShell(world: KitWorld, id: string, command: string, workdir?: string): 'skipped' | undefined {
  const shell = world.driver.description.shell;
  if (!shell || (workdir !== undefined && !shell.workdirField)) {
    world.log(
      `${NOT_APPLICABLE}the runtime declares no shell tool${shell ? ' with a structured working directory' : ''}`,
    );
    return 'skipped';
  }
  const input: Record<string, unknown> = { [shell.commandField]: withWorkspaces(world, command) };
  if (workdir !== undefined) input[shell.workdirField!] = withWorkspaces(world, workdir);
  world.provider.enqueue({ turn: toolCallsTurn([call(id, shell.tool, input)]) });
  return undefined;
}

Given(
  'the provider runs the shell command {string} as {string}',
  function (this: KitWorld, command: string, id: string) {
    return callShell(this, id, command);
  },
);

Given(
  'the provider runs the shell command {string} as {string} working in {string}',
  function (this: KitWorld, command: string, id: string, workdir: string) {
    return callShell(this, id, command, workdir);
  },
);

Given(
  'the agent {string} has the rule {permission-rule} for the shell',
  async function (this: KitWorld, agent: string, rule: 'allow' | 'deny' | 'ask') {
    const shell = this.driver.description.shell;
    if (!shell) {
      this.log(`${NOT_APPLICABLE}the runtime declares no shell tool`);
      return 'skipped';
    }
    await this.driver.defineAgent(agent, { [shell.tool]: rule }, {});
    return undefined;
  },
);

Then('no tool call waits for permission', async function (this: KitWorld) {
  expect(await this.driver.permissionRequests(this.session().id), 'waiting permission requests').to.deep.equal([]);
});
