import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Given, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { DEFAULT_PATCH_TOOL } from '../../harness/protocol/protocol.js';
import { toolCall as call, toolCallsTurn } from '../../harness/provider/turns.js';
import { offered, toolCall } from '../support/tool-calls.js';
import { withWorkspaces } from '../support/workspaces.js';
import type { KitWorld } from '../support/world.js';

/** `{workspace:<name>}` in a patch stands for that workspace's absolute path; the runtime names its patch tool's input. */
Given('the provider calls apply_patch {string} with:', function (this: KitWorld, id: string, text: string) {
  const patch = withWorkspaces(this, text);
  const { tool, patchField } = this.driver.description.patch ?? DEFAULT_PATCH_TOOL;
  this.provider.enqueue({ turn: toolCallsTurn([call(id, tool, { [patchField]: patch })]) });
});

/**
 * A runtime whose first request offers no patch tool lacks it: its call of the tool settles as an
 * unknown tool, which would pass the checks that only ask for an error and nothing changed.
 */
Then('request 1 offers the patch tool', function (this: KitWorld) {
  offered(this, (this.driver.description.patch ?? DEFAULT_PATCH_TOOL).tool);
});

/**
 * The same for a tool the scenarios call by its name in the seeds (the read tool), under the name
 * the runtime gives it: a read tool declared by another name is offered under that one.
 */
Then('request 1 offers the tool {string}', function (this: KitWorld, tool: string) {
  offered(this, this.means.toolName(tool));
});

/**
 * A commit-time failure needs a patch the runtime accepted while resolving its targets: one that
 * refuses it then, having changed nothing (as TLS-03 asks of a patch it cannot resolve), never
 * reaches the commit the scenario is about.
 */
Then(
  'the patch reached its commit, having added {string} in the workspace {string}',
  function (this: KitWorld, file: string, workspace: string) {
    return existsSync(join(this.workspace(workspace), file))
      ? undefined
      : this.notApplicable(`the runtime refused the patch before changing anything: ${file} was never added`);
  },
);

Then(
  'the file {string} in the workspace {string} holds:',
  function (this: KitWorld, file: string, workspace: string, text: string) {
    expect(readFileSync(join(this.workspace(workspace), file), 'utf8').replace(/\n$/, '')).to.equal(text);
  },
);

Then('the workspace {string} has no file {string}', function (this: KitWorld, workspace: string, file: string) {
  expect(existsSync(join(this.workspace(workspace), file)), `${file} exists`).to.equal(false);
});

/**
 * The seeds want "an explicit partial-application report" and leave its shape open: either the
 * structured `{applied, failed, notApplied}`, or the message the model was given for the call
 * (else the call's durable output) naming each applied path and the failing one, and an operation
 * that was not applied, if at all, only after all of them (as one not attempted).
 */
Then('call {string} reports:', async function (this: KitWorld, id: string, table: DataTable) {
  type Op = { op: string; path: string };
  const expected = table.hashes() as { outcome: string; op: string; path: string }[];
  const settled = await toolCall(this, id);
  const report = settled.structured as { applied?: Op[]; failed?: Op; notApplied?: Op[] } | undefined;
  if (report?.applied === undefined) {
    const shown = this.provider.requests
      .flatMap((sent) => sent.messages)
      .find((message) => message.role === 'tool' && message.toolCallId === id)?.text;
    const text = shown ?? settled.output ?? '';
    const named = (outcome: string) => expected.filter((row) => row.outcome === outcome).map((row) => row.path);
    const reported = [...named('applied'), ...named('failed')];
    for (const path of reported) expect(text, 'the report').to.include(path);
    const lastReported = Math.max(...reported.map((path) => text.lastIndexOf(path)));
    for (const path of named('not applied'))
      expect(
        text.indexOf(path) < 0 || text.indexOf(path) > lastReported,
        `whether the report names "${path}", which was not applied, only after what was applied and what failed: ${text}`,
      ).to.equal(true);
    this.tookReading('patch.partial-report', 'message');
    return;
  }
  const rows = [
    ...report.applied.map((o) => ({ outcome: 'applied', op: o.op, path: o.path })),
    ...(report.failed ? [{ outcome: 'failed', op: report.failed.op, path: report.failed.path }] : []),
    ...(report.notApplied ?? []).map((o) => ({ outcome: 'not applied', op: o.op, path: o.path })),
  ];
  expect(rows).to.deep.equal(expected);
  this.tookReading('patch.partial-report', 'structured');
});
