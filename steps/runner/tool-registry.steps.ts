import { Given, When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { request } from '../support/requests.js';

Given(
  'the location of {string} has the contributed tool {string} under {string}',
  async function (this: KitWorld, name: string, tool: string, contribution: string) {
    await this.driver.call('tool.contribution.register', {
      location: this.session(name).workspace,
      contribution,
      tools: [tool],
    });
  },
);

When(
  'the tool contribution {string} of the location of {string} is closed',
  async function (this: KitWorld, contribution: string, name: string) {
    await this.driver.call('tool.contribution.close', { location: this.session(name).workspace, contribution });
  },
);

Then(
  'request {int} {advertises} the tool {string}',
  function (this: KitWorld, n: number, advertises: boolean, tool: string) {
    const tools = expect(request(this, n).tools, `the tools of request ${n}`);
    if (advertises) tools.to.include(tool);
    else tools.to.not.include(tool);
  },
);
