import { Given, When, type DataTable } from '@cucumber/cucumber';
import type { KitWorld } from '../support/world.js';

Given('the agent {string} may use the tools:', async function (this: KitWorld, agent: string, table: DataTable) {
  const tools = table.raw().map(([tool, permission]) => [this.means.toolName(tool!), permission]);
  await this.driver.defineAgent(agent, Object.fromEntries(tools) as Record<string, 'allow' | 'deny' | 'ask'>, {});
});

Given('the agent {string} may load the skills:', async function (this: KitWorld, agent: string, table: DataTable) {
  await this.driver.defineAgent(agent, {}, Object.fromEntries(table.raw()) as Record<string, 'allow' | 'deny'>);
});

Given(
  'the skill {string} is described as {string} with the body {string}',
  async function (this: KitWorld, name: string, description: string, body: string) {
    await this.driver.defineSkill(name, description, body);
  },
);

Given(
  'the skill {string} is described as {string} with the body {string}, kept in {string}',
  async function (this: KitWorld, name: string, description: string, body: string, location: string) {
    await this.driver.defineSkill(name, description, body, location);
  },
);

When('the session selects the agent {string}', async function (this: KitWorld, agent: string) {
  await this.driver.select(this.session().id, { agent });
});

When('the session selects the model {string}', async function (this: KitWorld, model: string) {
  await this.driver.select(this.session().id, { model });
});

When('a tool call waits for permission', async function (this: KitWorld) {
  await this.driver.permissionAsked(this.session().id);
});

When('the user {permission-decision} the waiting tool call', async function (this: KitWorld, approves: boolean) {
  const [waiting] = await this.driver.permissionRequests(this.session().id);
  if (!waiting) throw new Error('no tool call is waiting for permission');
  await this.driver.replyPermission(waiting.id, approves);
});
