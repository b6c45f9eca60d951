import { existsSync, mkdtempSync, rmSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuntimeDriver } from '../driver/runtime-driver.js';
import { asNotDriven } from '../driver/runtime-fault.js';
import { declares, PROCESS_REUSE } from '../protocol/capabilities.js';
import type { FakeProvider } from '../provider/fake-provider.js';
import { SystemFallback } from '../provider/system-fallback.js';
import { textTurn } from '../provider/turns.js';
import { openTarget, type RuntimeSelection } from '../runtime-target.js';
import { fakeProvider, startRuntime } from '../runtime-start.js';
import { suiteSettings } from './suite-settings.js';
import { checkCapabilityTable, readCapabilityTable } from '../protocol/capability-table.js';
import { readRuleSubjects } from './rule-subjects.js';
import { kitPath } from '../kit-root.js';
import { protocolSchema } from '../protocol/protocol-schema.js';

export interface SmokeCheck {
  name: string;
  ok: boolean;
  detail: string;
  /** A failed check where the runtime could not be driven at all. */
  notDriven?: boolean;
}

/**
 * A few seconds' check for adapter authors: the handshake, one prompt answered through the fake
 * provider, the history that results, and a clean kill; for a runtime declaring process-reuse,
 * that the process it keeps serves the next scenario with nothing of the one before. Stops at the
 * first failed check.
 */
export async function smoke(
  selection: RuntimeSelection,
  options: { timeoutScale: number; validate: boolean; capabilityTable?: string },
  report: (check: SmokeCheck) => void,
): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'kit-smoke-'));
  const target = await openTarget(selection, dir);
  const provider = fakeProvider(suiteSettings().dialect);
  const stopRouting = target.route(provider);
  provider.enqueue({ turn: textTurn('pong', 2) });
  let driver: RuntimeDriver | undefined;
  /** A runtime over a store, home and workspace of its own below the smoke directory. */
  const start = async (name: string) => {
    const own = join(dir, name);
    for (const sub of ['store', 'home', 'workspace']) mkdirSync(join(own, sub), { recursive: true });
    driver = await startRuntime(target, provider, {
      storeDir: join(own, 'store'),
      now: '2026-01-15T09:00:00.000Z',
      home: join(own, 'home'),
      ...options,
    });
    return { driver, home: join(own, 'home'), workspace: join(own, 'workspace') };
  };
  const check = async (name: string, step: () => Promise<string>): Promise<void> => {
    try {
      report({ name, ok: true, detail: await step() });
    } catch (error) {
      report({
        name,
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
        notDriven: asNotDriven(error) !== undefined,
      });
      throw error;
    }
  };
  try {
    let workspace = '';
    let firstHome = '';
    await check('handshake', async () => {
      ({ workspace, home: firstHome } = await start('first'));
      const { runtime, profiles, capabilities, shell } = driver!.description;
      const described = `${runtime.name} ${runtime.version} (${runtime.language}); profiles ${profiles.join(', ')}; capabilities ${capabilities.join(', ') || 'none'}`;
      return shell ? `${described}; shell ${shell.tool} (${shell.commandField})` : described;
    });
    const table = options.capabilityTable;
    if (table)
      await check('capability table', async () => {
        const problems = checkCapabilityTable(
          readCapabilityTable(readFileSync(table, 'utf8'), table),
          table,
          driver!.description,
          [...Object.keys(protocolSchema().$defs.commands), ...partsRulesAreAbout()],
        );
        if (problems.length > 0) throw new Error(`${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
        return `${table} says how the adapter reaches every command and capability, as its handshake does`;
      });
    let sessionId = '';
    await check('session', async () => {
      ({ sessionId } = await driver!.createSession(workspace));
      return `created ${sessionId}`;
    });
    await check('one prompt answered', async () => {
      await driver!.admit(sessionId, 'ping');
      await driver!.idle(sessionId);
      // A runtime may follow the prompt with system messages of its own (a date, its environment),
      // and wrap context of its own into the user turn, as it declared.
      const sent = provider.requests.at(-1)?.messages.findLast((message) => message.role !== 'system');
      const template = driver!.description.texts['system-message.fallback'];
      const fallback = template === undefined ? undefined : new SystemFallback(template);
      const text = sent && (fallback?.split(sent.text) ?? { user: sent.text }).user;
      if (provider.requests.length !== 1 || text !== 'ping') {
        throw new Error(
          `expected one provider request whose last user message is "ping", got ${provider.requests.length}`,
        );
      }
      return 'the provider received "ping"';
    });
    await check('durable history', async () => {
      const history = (await driver!.history(sessionId)).map((m) => `${m.role}:${'text' in m ? m.text : ''}`);
      if (history.join(' ') !== 'user:ping assistant:pong') throw new Error(`history is ${JSON.stringify(history)}`);
      return 'user "ping", assistant "pong"';
    });
    await check('kill', async () => {
      await driver!.stop();
      return declares(driver!.description, PROCESS_REUSE)
        ? 'the runtime closed, its process kept for the next'
        : 'the adapter process is gone';
    });
    if (declares(driver!.description, PROCESS_REUSE))
      await check('the kept process', () => keptProcess(start, provider, firstHome));
    return true;
  } catch {
    return false;
  } finally {
    await driver?.stop().catch(() => {});
    stopRouting();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Two scenarios in turn in the process the kit keeps, with the same session and prompt IDs: nothing
 * of the scenario before may be in the next, neither in what its runtime reports nor in what its
 * provider is sent, and each reads the global instructions of its own home only.
 */
async function keptProcess(
  start: (name: string) => Promise<{ driver: RuntimeDriver; home: string; workspace: string }>,
  provider: FakeProvider,
  firstHome: string,
): Promise<string> {
  // Every home gets a global instruction file naming it, the one of the smoke's first runtime too.
  const writeMark = (home: string, name: string) =>
    writeFileSync(join(home, 'AGENTS.md'), `${homeMark(name)}: the global instructions of ${name}\n`);
  writeMark(firstHome, 'first');
  const first = await start('kept-first');
  writeMark(first.home, 'kept-first');
  if (!first.driver.reusedProcess) {
    if (!existsSync('/proc'))
      return 'not checked: the kit did not keep the process (it cannot tell its processes apart without /proc)';
    throw new Error(
      'the adapter declares process-reuse, but its process was not kept for the next scenario: it did not answer runtime.close, answered it with an error, or did not answer the next hello',
    );
  }
  const before = provider.requests.length;
  provider.enqueue({ turn: textTurn('first reply', 2) });
  await first.driver.createSession(first.workspace, 's1');
  await first.driver.admit('s1', 'first prompt', { id: 'p1' });
  await first.driver.idle('s1');
  await first.driver.stop();
  const second = await start('kept-second');
  if (!second.driver.reusedProcess) throw new Error('the kept process did not answer the next hello');
  writeMark(second.home, 'kept-second');
  const between = provider.requests.length;
  provider.enqueue({ turn: textTurn('second reply', 2) });
  const { created } = await second.driver.createSession(second.workspace, 's1');
  if (!created) throw new Error('session s1 of the scenario before was found again');
  const receipt = await second.driver.admit('s1', 'second prompt', { id: 'p1' });
  if (receipt.duplicate) throw new Error('prompt p1 of the scenario before counted as a duplicate');
  await second.driver.idle('s1');
  const sent = provider.requests.slice(between).map((request) => JSON.stringify(request.body));
  const leaked = ['first prompt', 'first reply'].filter((text) => sent.some((body) => body.includes(text)));
  if (sent.length !== 1 || leaked.length > 0)
    throw new Error(
      `the next scenario's provider requests: ${sent.length}, naming ${leaked.join(', ') || 'nothing'} of the one before`,
    );
  const history = (await second.driver.history('s1')).map((m) => `${m.role}:${'text' in m ? m.text : ''}`);
  if (history.join(' ') !== 'user:second prompt assistant:second reply')
    throw new Error(`the next scenario's history is ${JSON.stringify(history)}`);
  await second.driver.stop();
  const homes = homesRead(
    provider.requests.slice(before, between).map((request) => JSON.stringify(request.body)),
    sent,
  );
  return `the next scenario found no session, prompt or reply of the one before${homes}`;
}

const SMOKE_RUNTIMES = ['first', 'kept-first', 'kept-second'];
const homeMark = (name: string) => `HOME-MARK-${name.toUpperCase()}`;

/**
 * Which homes' global instructions the kept scenarios' requests name: each its own only; and where
 * the runtime reads them at all, each its own.
 */
function homesRead(first: string[], second: string[]): string {
  const named = (bodies: string[]) =>
    SMOKE_RUNTIMES.filter((name) => bodies.some((body) => body.includes(homeMark(name))));
  const [inFirst, inSecond] = [named(first), named(second)];
  for (const [name, found] of [
    ['kept-first', inFirst],
    ['kept-second', inSecond],
  ] as const) {
    const others = found.filter((other) => other !== name);
    if (others.length > 0) throw new Error(`scenario ${name} was sent the global instructions of ${others.join(', ')}`);
  }
  const reads = inFirst.length + inSecond.length > 0;
  if (reads && (inFirst.length === 0 || inSecond.length === 0))
    throw new Error('one kept scenario was sent its global instructions and the other not');
  return reads ? ', and each read its own home only' : ' (the runtime sends no global instruction file of its home)';
}

/**
 * The parts of commands a rule is about (rules/index.md, `About:`): each gets a row of its own, so an
 * adapter says whether the runtime has it (a caller's message ID, a prompt held without a run) rather
 * than leaving a rule about it to be judged on what the adapter computes.
 */
function partsRulesAreAbout(): string[] {
  const names = [...readRuleSubjects(kitPath('rules', 'index.md')).byRule.values()].flat().map(({ name }) => name);
  const commands = new Set(Object.keys(protocolSchema().$defs.commands));
  return [...new Set(names)].filter((name) => !commands.has(name));
}
