import { Refusal } from './stdio-serve.mjs';

/**
 * The protocol's reads of a runtime whose durable state an adapter projects from the records the
 * runtime keeps for a session (a transcript, a rollout, a session file), read anew on every
 * command, so each read shows what is durable at that moment: `history`, `failures`,
 * `compactions` and `events` for the projections given, and event subscriptions, whose cursor is
 * the `seq` of the last event taken. `known` throws for a session the adapter never opened;
 * `subscriptions` is the adapter's own map where it must clear it (a reused process).
 *
 * @param {{
 *   recordsOf: (sessionId: string) => { seq: number }[],
 *   project: {
 *     history?: (records: any[]) => unknown[],
 *     failures?: (records: any[]) => unknown[],
 *     compactions?: (records: any[]) => unknown[],
 *     events: (records: any[], after: number) => { seq: number }[],
 *   },
 *   known?: (sessionId: string) => void,
 *   subscriptions?: Map<string, { sessionId: string, cursor: number }>,
 * }} store
 */
export function storeReads({ recordsOf, project, known = () => {}, subscriptions = new Map() }) {
  const { history, failures, compactions, events } = project;
  return {
    ...(history ? { history: (c) => ({ messages: history(recordsOf(c.sessionId)) }) } : {}),
    ...(failures ? { failures: (c) => ({ failures: failures(recordsOf(c.sessionId)) }) } : {}),
    ...(compactions ? { compactions: (c) => ({ compactions: compactions(recordsOf(c.sessionId)) }) } : {}),
    events: (c) => ({ events: events(recordsOf(c.sessionId), c.after ?? 0) }),
    'events.subscribe': (c) => {
      known(c.sessionId);
      const id = `sub_${subscriptions.size + 1}`;
      subscriptions.set(id, { sessionId: c.sessionId, cursor: c.after ?? 0 });
      return { subscription: id };
    },
    'events.take': (c) => {
      const subscription = subscriptions.get(c.subscription);
      if (!subscription) throw new Refusal('not-found', `no subscription ${c.subscription}`);
      const taken = events(recordsOf(subscription.sessionId), subscription.cursor);
      if (taken.length > 0) subscription.cursor = taken.at(-1).seq;
      return { events: taken };
    },
  };
}
