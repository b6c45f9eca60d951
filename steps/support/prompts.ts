import type { AdmitOptions } from '../../harness/driver/runtime-driver.js';
import type { PromptContent } from '../../harness/protocol/protocol.js';
import type { KitWorld } from './world.js';

/** Admits `text` (or a whole prompt) to the session (the scenario's first unless named); a later step may assert its error. */
export async function admit(
  world: KitWorld,
  text: string | PromptContent,
  options: AdmitOptions,
  session?: string,
): Promise<void> {
  if (typeof text === 'string') world.promptsAdmitted.add(text);
  await world.attempt(async () => {
    world.receipt = await world.driver.admit(world.session(session).id, text, options);
  });
}

/** A 1x1 PNG: a real image, small enough to read in a request. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
export const image = { type: 'image' as const, mediaType: 'image/png', data: PIXEL };

/** The header and end marker of a PDF: a file that is no image, small enough to read in a request. */
export const pdf = { type: 'file' as const, mediaType: 'application/pdf', data: 'JVBERi0xLjQKJSVFT0YK' };
