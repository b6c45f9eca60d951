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

/** A contributed tool that declares its output's schema (an object with an integer field) and answers with `answer`. */
Given(
  'the location of {string} has the contributed tool {string} under {string}, answering {string} where its output schema asks for an integer {string}',
  async function (this: KitWorld, name: string, tool: string, contribution: string, answer: string, field: string) {
    const outputSchema = { type: 'object', properties: { [field]: { type: 'integer' } }, required: [field] };
    await this.driver.call('tool.contribution.register', {
      location: this.session(name).workspace,
      contribution,
      tools: [tool],
      answers: { [tool]: { outputSchema, structured: JSON.parse(answer) as unknown } },
    });
    this.contributedTools.add(tool);
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
