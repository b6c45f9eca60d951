import type { CommandTable } from '../command.js';
import { opt } from '../command.js';
import type { RuntimeHost } from '../runtime-host.js';

/** Sessions, the prompts they admit, and their drains. */
export function sessionCommands({ runtime, profile }: RuntimeHost): CommandTable {
  return {
    'session.create': (c) => {
      const { session, created } = runtime.createSession({
        id: opt(c.id),
        location: String(c.location),
        projectRoot: opt(c.projectRoot),
      });
      return { sessionId: session.id, created };
    },
    'prompt.admit': (c) => {
      const receipt = runtime.prompt({
        sessionId: String(c.sessionId),
        id: opt(c.id),
        prompt: c.prompt as never,
        delivery: c.delivery as never,
        resume: c.resume as boolean | undefined,
      });
      return { messageId: receipt.messageId, state: receipt.state, duplicate: receipt.duplicate };
    },
    // Only the inbox-free entry of profile sol; otherwise prompts go through the durable inbox.
    ...(profile.offersInboxFreePrompts()
      ? {
          'prompt.submit': (c) => ({
            messageId: runtime.promptWhenIdle({
              sessionId: String(c.sessionId),
              id: opt(c.id),
              prompt: c.prompt as never,
            }).messageId,
          }),
        }
      : {}),
    'retry.wait': async (c) => {
      const { retry, delayMs, at, reason } = await runtime.retries.whenScheduled(String(c.sessionId), Number(c.retry));
      return { retry, delayMs, at: at.toISOString(), reason };
    },
    'session.run': (c) => void runtime.run(String(c.sessionId)),
    'session.wake': (c) => runtime.wake(String(c.sessionId)),
    'session.interrupt': (c) => runtime.interrupt(String(c.sessionId)),
    'session.idle': (c) => runtime.idle(String(c.sessionId)),
    'session.move': (c) => runtime.move(String(c.sessionId), String(c.location), opt(c.projectRoot)),
    'session.select': (c) =>
      runtime.select(String(c.sessionId), {
        ...('agent' in c ? { agent: c.agent as string | null } : {}),
        ...('model' in c ? { model: c.model as string | null } : {}),
      }),
  };
}
