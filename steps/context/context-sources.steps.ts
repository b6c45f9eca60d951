import { Given, When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import type { KitSourceDeclaration } from '../../harness/protocol/protocol.js';
import { baselineOf } from '../support/requests.js';
import { AwaitedStateNotReached } from '../../harness/driver/runtime-driver.js';
import { GateNeverBlocked } from '../../harness/means/tool-means.js';

/** Kit sources render one line each; these are the lines of a baseline that the kit defined. */
const kitLines = (text: string) => text.split('\n').filter((line) => line.startsWith('kit/'));

function declarations(table: DataTable): KitSourceDeclaration[] {
  return table.hashes().map((row) => ({
    key: row.key!,
    ...(row.removable ? { removable: row.removable === 'yes' } : {}),
    ...(row.latency ? { latency: Number(row.latency) } : {}),
  }));
}

Given(
  'the contributor {string} contributes the context sources:',
  async function (this: KitWorld, contributor: string, table: DataTable) {
    await this.driver.call('context.contributor.register', {
      location: this.session().workspace,
      contributor,
      sources: declarations(table),
    });
  },
);

Given(
  'the contributor {string} contributes the context sources in the workspace {string}:',
  async function (this: KitWorld, contributor: string, workspace: string, table: DataTable) {
    await this.driver.call('context.contributor.register', {
      location: this.workspace(workspace),
      contributor,
      sources: declarations(table),
    });
  },
);

Given('the contributor {string} is removed', async function (this: KitWorld, contributor: string) {
  await this.driver.call('context.contributor.remove', { location: this.session().workspace, contributor });
});

Given('the context source {string} has the value {string}', async function (this: KitWorld, key: string, json: string) {
  await this.driver.setSource(key, { value: JSON.parse(json) });
});

Given(
  'the context source {string} has the value {string}, which changes to {string} once it is read',
  async function (this: KitWorld, key: string, json: string, next: string) {
    await this.driver.setSource(key, { value: JSON.parse(json) }, { value: JSON.parse(next) });
  },
);

Given(
  'the context source {string} has the value {string}, read only once the gate {string} opens',
  async function (this: KitWorld, key: string, json: string, gate: string) {
    await this.driver.setSource(key, { value: JSON.parse(json) }, undefined, gate);
  },
);

Given(
  'the context source {string} is {source-state}',
  async function (this: KitWorld, key: string, state: 'unavailable' | 'absent') {
    await this.driver.setSource(key, { state });
  },
);

Then('{request} has the kit context in its baseline:', function (this: KitWorld, n: number, table: DataTable) {
  expect(kitLines(baselineOf(this, n))).to.deep.equal(table.raw().map(([line]) => line));
});

Then('reconciling the context now would be {string}', async function (this: KitWorld, outcome: string) {
  const { outcome: reached } = await this.driver.call('context.reconcile', { sessionId: this.session().id });
  expect(reached).to.equal(outcome);
});

/**
 * CTX-03: two gated reads held at once. A runtime that reads its sources one after another waits
 * on the first gate and never comes to the second while the first is closed.
 */
When(
  'the gates {string} and {string} are blocked at the same time',
  async function (this: KitWorld, first: string, second: string) {
    for (const gate of [first, second]) {
      try {
        await this.driver.time.measure('other awaited states', () => this.means.gateBlocked(gate));
      } catch (error) {
        if (!(error instanceof AwaitedStateNotReached || error instanceof GateNeverBlocked)) throw error;
        expect.fail(`nothing waited on the gate "${gate}" while the other of "${first}" and "${second}" was closed`);
      }
    }
  },
);
