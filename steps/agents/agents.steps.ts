import { Given, Then, When, type DataTable } from '@cucumber/cucumber';
import { DEFAULT_SKILL_TOOL } from '../../harness/protocol/protocol.js';
import { toolCall, toolCallsTurn } from '../../harness/provider/turns.js';
import { offered } from '../support/tool-calls.js';
import { isKitModel } from '../../harness/provider/kit-models.js';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';

Given('the agent {string} may use the tools:', async function (this: KitWorld, agent: string, table: DataTable) {
  const tools = table.raw().map(([tool, permission]) => [this.means.toolName(tool!), permission]);
  const permissions = Object.fromEntries(tools) as Record<string, 'allow' | 'deny' | 'ask'>;
  await this.driver.call('agent.define', { name: agent, tools: permissions, skills: {} });
});

Given('the agent {string} may load the skills:', async function (this: KitWorld, agent: string, table: DataTable) {
  const skills = Object.fromEntries(table.raw()) as Record<string, 'allow' | 'deny'>;
  await this.driver.call('agent.define', { name: agent, tools: {}, skills });
});

Given(
  'the skill {string} is described as {string} with the body {string}',
  async function (this: KitWorld, name: string, description: string, body: string) {
    await this.driver.call('skill.define', { name, description, body });
  },
);

Given(
  'the skill {string} is described as {string} with the body {string}, kept in {string}',
  async function (this: KitWorld, name: string, description: string, body: string, location: string) {
    await this.driver.call('skill.define', { name, description, body, location });
  },
);

When(
  /^the session(?: "([^"]*)")? selects the agent "([^"]*)"$/,
  async function (this: KitWorld, name: string | null, agent: string) {
    await this.driver.call('session.select', { sessionId: this.session(name ?? undefined).id, agent });
  },
);

When('the session selects the model {string}', async function (this: KitWorld, model: string) {
  if (!isKitModel(model)) throw new Error(`the handshake names no model "${model}": add it to OTHER_KIT_MODELS`);
  await this.driver.call('session.select', { sessionId: this.session().id, model });
});

When('a tool call waits for permission', function (this: KitWorld) {
  return askedForPermission(this, undefined);
});

When('a tool call of session {string} waits for permission', function (this: KitWorld, name: string) {
  return askedForPermission(this, name);
});

/**
 * A session that settles instead of asking ran its call without asking: that fails here, not at a
 * timeout. So does a wait the runtime refuses because nothing waits and nothing can come now.
 */
async function askedForPermission(world: KitWorld, name: string | undefined): Promise<void> {
  if (!(await askedBeforeSettling(world, name)))
    expect.fail(`${name === undefined ? 'the session' : `session "${name}"`} settled without asking for permission`);
}

/** Whether the session asked for permission (true) or settled without asking (false). */
async function askedBeforeSettling(world: KitWorld, name: string | undefined): Promise<boolean> {
  const sessionId = world.session(name).id;
  const settled = world.driver.idle(sessionId).then(
    () => true,
    () => false,
  );
  const asked = world.driver.call('permission.wait', { sessionId }).then(
    () => true,
    () => false,
  );
  return Promise.race([asked, settled.then((idle) => (idle ? false : asked))]);
}

/**
 * Where asking is not what the scenario judges: a runtime that checks a patch's targets before it
 * asks may stop the patch without asking, and the checks that follow (nothing changed) judge it
 * all the same.
 */
When(
  'the user approves the tool call waiting for permission, if the session asks before it settles',
  async function (this: KitWorld) {
    if (await askedBeforeSettling(this, undefined)) await replyToWaiting(this, undefined, { approve: true });
  },
);

async function replyToWaiting(world: KitWorld, name: string | undefined, reply: { approve: boolean; always?: true }) {
  const [waiting] = (await world.driver.call('permission.pending', { sessionId: world.session(name).id })).requests;
  if (!waiting) throw new Error('no tool call is waiting for permission');
  await world.driver.call('permission.reply', { id: waiting.id, ...reply });
}

When('the user {permission-decision} the waiting tool call', function (this: KitWorld, approves: boolean) {
  return replyToWaiting(this, undefined, { approve: approves });
});

When(
  'the user {permission-decision} the waiting tool call of session {string}',
  function (this: KitWorld, approves: boolean, name: string) {
    return replyToWaiting(this, name, { approve: approves });
  },
);

/** An approval kept for the session's project (TLS-05), where the runtime declares it keeps such approvals. */
When('the user approves the waiting tool call for the project', function (this: KitWorld) {
  return replyToWaiting(this, undefined, { approve: true, always: true });
});

/** The same for the skill tool, by the name the runtime declares (AGT-07). */
Then('request 1 offers the skill tool', function (this: KitWorld) {
  offered(this, (this.driver.description.skill ?? DEFAULT_SKILL_TOOL).tool);
});

/** A load of the skill `name` through the runtime's skill tool, as the call `id`. */
Given('the provider loads the skill {string} as {string}', function (this: KitWorld, name: string, id: string) {
  const { tool, nameField } = this.driver.description.skill ?? DEFAULT_SKILL_TOOL;
  this.provider.enqueue({ turn: toolCallsTurn([toolCall(id, tool, { [nameField]: name })]) });
});
