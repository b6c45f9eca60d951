import { Given, When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { request } from '../support/requests.js';

/** One named tool, or a number of them named `kit_contributed_<n>`, contributed to a session's location. */
Given(
  /^the location of "([^"]*)" has (?:the contributed tool "([^"]*)"|(\d+) contributed tools) under "([^"]*)"$/,
  async function (this: KitWorld, name: string, tool: string | null, count: string | null, contribution: string) {
    const tools = tool !== null ? [tool] : Array.from({ length: Number(count) }, (_, i) => `kit_contributed_${i + 1}`);
    await this.driver.call('tool.contribution.register', {
      location: this.session(name).workspace,
      contribution,
      tools,
    });
    for (const contributed of tools) this.contributedTools.add(contributed);
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
