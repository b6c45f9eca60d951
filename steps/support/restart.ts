import { expect } from 'chai';
import type { KitWorld } from './world.js';
import { NothingToJudge } from '../../harness/report/outcome.js';

/**
 * Restarts the runtime, then checks that each session's durable history still holds the prompts
 * it held before (its user messages, in their order): a restart is the kill of a crash, and INB-06
 * holds that a crash loses no prompt. A runtime whose store no longer holds them after the restart
 * fails there, on that rule, and the scenario's checks after it read a session that is no longer
 * the one they are about. The features name INB-06 above every restart step (`FACTS_OF_RULES`).
 */
export async function restartKeepingPrompts(world: KitWorld, restart: () => Promise<void>): Promise<void> {
  const lost = await promptsLostBy(world, restart);
  expect(lost?.lost ?? [], lost && lostText(lost, 'after the restart')).to.deep.equal([]);
}

/**
 * Applies a setting with sessions open, then checks each session's durable history still holds its
 * prompts. Where a runtime takes a setting only at its start, its adapter restarts it; a restart
 * that loses history leaves the scenario reading a session that is no longer the one it is about,
 * so it judges nothing (a lost prompt is INB-06's, judged where the kit itself restarts the runtime).
 */
export async function settingKeepingPrompts<T>(world: KitWorld, setting: string, apply: () => Promise<T>): Promise<T> {
  let applied: T | undefined;
  const lost = await promptsLostBy(world, async () => {
    applied = await apply();
  });
  if (lost) throw new NothingToJudge(`applying ${setting}, ${lostText(lost)}`);
  return applied as T;
}

interface LostPrompts {
  name: string;
  held: string[];
  now: string[];
  lost: string[];
}

const lostText = ({ name, held, now }: LostPrompts, when?: string) =>
  `the durable history of session "${name}"${when ? ` ${when}` : ''} lacks prompts it held before: it held ${quoted(held)}, it now holds ${quoted(now)}`;

/** The first session whose durable history lost prompts it held before `change`, with what it held and holds. */
async function promptsLostBy(world: KitWorld, change: () => Promise<void>): Promise<LostPrompts | undefined> {
  const before = new Map<string, string[]>();
  for (const [name, session] of world.sessions) before.set(name, await promptsOf(world, session.id));
  await change();
  for (const [name, session] of world.sessions) {
    const held = before.get(name) ?? [];
    if (held.length === 0) continue;
    const now = await promptsOf(world, session.id);
    const lost = missing(held, now);
    if (lost.length > 0) return { name, held, now, lost };
  }
  return undefined;
}

/** The texts of a session's prompts in its durable history; none for a session the runtime cannot read. */
async function promptsOf(world: KitWorld, sessionId: string): Promise<string[]> {
  const messages = await world.driver.history(sessionId).catch(() => []);
  return messages.flatMap((message) => (message.role === 'user' && !message.continuation ? [message.text] : []));
}

/** The prompts of `held` that `now` does not hold in the same order. */
function missing(held: readonly string[], now: readonly string[]): string[] {
  let at = 0;
  return held.filter((text) => {
    const found = now.indexOf(text, at);
    if (found === -1) return true;
    at = found + 1;
    return false;
  });
}

const quoted = (texts: readonly string[]) =>
  texts.length === 0
    ? 'none'
    : texts.map((text) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)).join(', ');
