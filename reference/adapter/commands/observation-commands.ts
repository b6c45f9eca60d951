import { RuntimeError } from '../../errors.js';
import type { StoredEvent } from '../../events/session-event.js';
import type { SessionRuntime } from '../../runtime.js';
import type { CommandTable } from '../command.js';
import { toKitEvent, toKitInboxRow, toKitMessage } from '../kit-views.js';

/** A session's durable history, inbox and events, read at once or tailed through a subscription. */
export class ObservationCommands {
  private readonly subscriptions = new Map<string, { buffer: StoredEvent[]; stop: () => void }>();

  constructor(private readonly runtime: SessionRuntime) {}

  table(): CommandTable {
    const { runtime, subscriptions } = this;
    return {
      history: (c) => ({ messages: runtime.messages(String(c.sessionId)).map(toKitMessage) }),
      inbox: (c) => ({ rows: runtime.inboxRows(String(c.sessionId)).map(toKitInboxRow) }),
      events: (c) => ({ events: runtime.events(String(c.sessionId), Number(c.after ?? 0)).map(toKitEvent) }),
      failures: (c) => ({
        failures: runtime
          .events(String(c.sessionId))
          .flatMap(({ event }) =>
            event.type === 'session.failed' ? [{ code: event.code, message: event.message }] : [],
          ),
      }),
      'events.subscribe': (c) => {
        const id = `sub_${subscriptions.size + 1}`;
        const buffer: StoredEvent[] = [];
        const stop = runtime.tail(String(c.sessionId), Number(c.after ?? 0), (event) => buffer.push(event));
        subscriptions.set(id, { buffer, stop });
        return { subscription: id };
      },
      'events.take': (c) => {
        const subscription = subscriptions.get(String(c.subscription));
        if (!subscription) throw new RuntimeError('not-found', `no subscription ${c.subscription}`);
        return { events: subscription.buffer.splice(0).map(toKitEvent) };
      },
    };
  }

  /** Stops every tail, as the process ends. */
  stop(): void {
    for (const subscription of this.subscriptions.values()) subscription.stop();
  }
}
