import { join } from 'node:path';
import { Given, When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { AwaitedStateNotReached, RuntimeReportedError } from '../../harness/driver/runtime-driver.js';
import { dialects } from '../../harness/provider/wire/dialect.js';
import { fakeProvider } from '../../harness/runtime-start.js';
import type { ProviderDialectName } from '../../harness/protocol/protocol.js';
import { GateNeverBlocked } from '../../harness/means/tool-means.js';
import { NotImplemented } from '../../harness/report/outcome.js';
import { offersHostedTools } from '../tools/provider-tools.steps.js';
import { restartKeepingPrompts } from '../support/restart.js';

/**
 * A reading a seed leaves open, which the runtime declares it follows (`texts[name]` is `yes`):
 * a scenario that checks that reading gives no verdict to a runtime that does not declare it.
 */
Given('the runtime declares the choice {string}', function (this: KitWorld, name: string) {
  if (this.driver.description.texts[name] !== 'yes')
    return this.notApplicable(`the runtime does not declare the choice ${name}`);
  this.tookReading(name, 'yes');
  return undefined;
});

Given('a session {string}', async function (this: KitWorld, name: string) {
  await this.createSession(name);
});

When('a session is created without an ID', async function (this: KitWorld) {
  this.createdSessions.push(await this.driver.createSession(this.workspace('generated')));
});

When('a session {string} is created again', async function (this: KitWorld, name: string) {
  this.createdSessions.push(await this.driver.createSession(this.workspace(`${name}-again`), name));
});

Then('both sessions are new and have different IDs', function (this: KitWorld) {
  const [first, second] = this.createdSessions;
  expect(first?.created && second?.created, 'both creations report a new session').to.equal(true);
  expect(first!.sessionId).to.be.a('string').and.not.equal('');
  expect(second!.sessionId).to.not.equal(first!.sessionId);
});

Then('the session was not created anew', function (this: KitWorld) {
  const [first, again] = [this.createdSessions[0]!, this.createdSessions.at(-1)!];
  expect(again.created, 'the second create reports an existing session').to.equal(false);
  expect(again.sessionId).to.equal(first.sessionId);
});

When('the session is run', async function (this: KitWorld) {
  await this.driver.run(this.session().id);
});

When('the session is woken', async function (this: KitWorld) {
  await this.driver.wake(this.session().id);
});

/** `session "<id>"` takes the ID as it is: a session the runtime never created may be interrupted too. */
When(/^(?:the session|session "([^"]*)") is interrupted$/, async function (this: KitWorld, id: string | null) {
  await this.driver.call('session.interrupt', { sessionId: id ?? this.session().id });
});

/**
 * `interrupt` returns once the drain it stopped is over (INB-14). The gate holds that drain where
 * it cannot stop at once (a context read that ignores the interrupt), so a runtime returns either
 * after the gate opens, having waited for the drain, or before it, having already left the drain
 * behind. The run goes out as soon as the interrupt returns, with the gate still closed where it
 * returned before the gate opened: a drain still running then is one the interrupt did not wait
 * for, and the run joins it instead of starting its own.
 */
When(
  'the session is interrupted while the gate {string} holds its drain, and run once the interrupt returns',
  async function (this: KitWorld, gate: string) {
    const sessionId = this.session().id;
    let returned = false;
    const interrupt = this.driver.call('session.interrupt', { sessionId });
    interrupt.then(
      () => (returned = true),
      () => undefined,
    );
    // Two answers in turn: by the second, whatever the runtime answered at once has arrived.
    await this.driver.history(sessionId);
    await this.driver.history(sessionId);
    if (!returned) {
      await this.means.openGate(gate);
      await interrupt;
      await this.driver.run(sessionId);
      return;
    }
    const run = this.driver.run(sessionId);
    run.catch(() => undefined);
    await this.means.openGate(gate);
    await Promise.all([interrupt, run]);
  },
);

/**
 * A runtime that cannot settle because its request waits on a reply the scenario holds is not
 * hung: it asked the provider at a point the scenario did not expect, which is its behaviour.
 * With one session, that request is the settling session's own, so it fails at once instead of
 * at the wait's deadline: a held reply is released only by a later step.
 */
async function settle(world: KitWorld, sessionId: string): Promise<void> {
  const held = () => [...world.provider.awaitedHolds];
  try {
    const holding = world.sessions.size === 1 ? world.provider.holdAwaited().then(() => 'held' as const) : undefined;
    const ended = await Promise.race([world.driver.idle(sessionId), ...(holding ? [holding] : [])]);
    if (ended !== 'held') return;
  } catch (error) {
    if (!(error instanceof AwaitedStateNotReached)) throw error;
    if (held().length === 0) {
      // A runtime that asks before a call the scenario expects refused or run waits on an answer no step gives.
      const waiting = await world.driver.call('permission.pending', { sessionId }).then(
        ({ requests }) => requests,
        () => [],
      );
      // A runtime that goes on calling the provider past the script has already done what the
      // scenario rules out: that is its failure, not a wait that proves nothing.
      const unscripted = world.provider.unexpected;
      if (waiting.length === 0 && unscripted.length > 0)
        expect.fail(
          `the session did not settle: it went on calling the provider after the scenario's script ended, ${unscripted.length} request(s) with no scripted turn, the first ${unscripted[0]} (${error.message})`,
        );
      if (waiting.length === 0) throw error;
      expect.fail(
        `the session did not settle: it waits for permission to run ${waiting.map((r) => r.tool).join(', ')}, which no step of the scenario answers (${error.message})`,
      );
    }
  }
  expect.fail(
    `the session did not settle: request ${world.provider.requests.length} waits on the held reply ${held()
      .map((hold) => JSON.stringify(hold))
      .join(', ')}, which the scenario releases only later`,
  );
}

When('the session settles', async function (this: KitWorld) {
  await settle(this, this.session().id);
});

When('session {string} settles', async function (this: KitWorld, name: string) {
  await settle(this, this.session(name).id);
});

When('the runtime process restarts', async function (this: KitWorld) {
  await restartKeepingPrompts(this, () => this.driver.restart(this.now));
});

/**
 * The runtime starts again over its store talking to a provider of the first other dialect it
 * speaks: what it does there is compared with what it did before. A runtime that speaks one
 * dialect only refuses the others in its handshake.
 */
When('the runtime process restarts talking to a provider of another dialect', async function (this: KitWorld) {
  const spoken = this.provider.dialect.name;
  for (const dialect of Object.keys(dialects).filter((name) => name !== spoken)) {
    this.talkTo(fakeProvider(dialect));
    try {
      await restartKeepingPrompts(this, () => this.driver.restartSpeaking(dialect as ProviderDialectName, this.now));
      return undefined;
    } catch (error) {
      if (!(error instanceof RuntimeReportedError && error.code === 'unsupported')) throw error;
    }
  }
  return this.notApplicable(`needs a provider dialect besides ${spoken}, and the runtime speaks no other`);
});

Given('the clock is at {string}', async function (this: KitWorld, now: string) {
  this.now = new Date(now).toISOString();
  await this.driver.setClock(this.now);
});

/** To a workspace of its own, or to `location` within the workspace `project`; the session works there from then on. */
When(
  /^session "([^"]*)" moves to (?:a new workspace "([^"]*)"|"([^"]*)" of the project "([^"]*)")$/,
  async function (
    this: KitWorld,
    name: string,
    workspace: string | null,
    location: string | null,
    project: string | null,
  ) {
    const session = this.session(name);
    const destination = this.workspace(workspace ?? join(project!, location!));
    await this.driver.call('session.move', {
      sessionId: session.id,
      location: destination,
      ...(project === null ? {} : { projectRoot: this.workspace(project) }),
    });
    session.workspace = destination;
  },
);

/**
 * The provider's call of the gate reached the tool, which now blocks. A turn the runtime failed
 * before it ran the call (its own failure reported) is a failure of the scenario, not a runtime the
 * kit could not drive.
 */
When('the gate {string} is blocked', async function (this: KitWorld, gate: string) {
  try {
    await this.driver.time.measure('other awaited states', () => this.means.gateBlocked(gate));
  } catch (error) {
    if (!(error instanceof AwaitedStateNotReached || error instanceof GateNeverBlocked)) throw error;
    const failures = await this.driver.failures(this.session().id);
    if (failures.length === 0) throw error;
    // A runtime offering no tools of the provider's own fails a turn whose stream carried one.
    if (this.hostedCallScripted && this.provider.requests.length > 0 && !offersHostedTools(this))
      throw new NotImplemented(
        'tools the provider executes',
        `request 1 offers none, and the runtime failed the turn the provider's web search came in, reporting ${JSON.stringify(failures)}`,
      );
    expect.fail(
      `the gate "${gate}" was never called: the runtime failed the turn first, reporting ${JSON.stringify(failures)}`,
    );
  }
});

/**
 * A second call of the turn blocked beside the first: `003` starts each complete call at once, but
 * a runtime that runs the calls of a turn one after another never has two running, and the
 * scenario, about what was running together, does not apply to it.
 */
When(
  'the gate {string} is blocked too, where the runtime runs the calls of a turn side by side',
  async function (this: KitWorld, gate: string) {
    try {
      await this.driver.time.measure('other awaited states', () => this.means.gateBlocked(gate));
      return undefined;
    } catch (error) {
      if (!(error instanceof AwaitedStateNotReached || error instanceof GateNeverBlocked)) throw error;
      return this.notApplicable(
        `no call blocked on the gate "${gate}" while the first call of its turn ran: the runtime runs the calls of a turn one after another`,
      );
    }
  },
);

When('the gate {string} opens', async function (this: KitWorld, gate: string) {
  await this.means.openGate(gate);
});
