import { EmulatedAnswer } from './stdio-serve.mjs';

/** What a receipt emulates when the runtime keeps no message ID of the caller's: the kit's is echoed. */
export const CALLER_IDS = ['prompt.admit.receipt', 'prompt.admit.id'];

/** Where a prompt was admitted without a run (`resume: false`) and the runtime has no such admission. */
const HELD = ['prompt.admit.held', ...CALLER_IDS];

/** The receipt of a prompt the adapter holds, in its memory, until `session.run` or `session.wake` submits it. */
export function heldReceipt(messageId) {
  return new EmulatedAnswer({ messageId, state: 'pending', duplicate: false }, HELD);
}

/**
 * `session.run` and `session.wake` of a runtime with no way to go on without new input, nor work of
 * its own when a session opens: both submit the prompts the adapter holds and nothing else.
 * `known` refuses a session the kit never created.
 */
export function heldPromptCommands({ known, submitHeld }) {
  const submit = async (c) => {
    known(c.sessionId);
    await submitHeld(c.sessionId);
  };
  return { 'session.run': submit, 'session.wake': submit };
}
