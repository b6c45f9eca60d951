import { expect } from 'chai';
import { COMMAND_TIMEOUT_MS } from '../../harness/driver/runtime-driver.js';
import { suiteSettings } from '../../harness/suite/suite-settings.js';
import type { KitWorld } from './world.js';

/** How long the runtime may take to do one thing the kit waits for, `--timeout-scale` applied. */
export function commandTimeoutMs(): number {
  return COMMAND_TIMEOUT_MS * suiteSettings().timeoutScale;
}

/** Waits for something the runtime should do, failing with `expectation` once the command timeout passes. */
export async function withinCommandTimeout<T>(waiting: Promise<T>, expectation: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${expectation} within ${commandTimeoutMs()} ms`)), commandTimeoutMs());
  });
  try {
    return await Promise.race([waiting, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits until the provider has received `count` requests in all, failing within one command's
 * time with how many came and `meaning` (what it says of the runtime that they did not).
 */
export async function requestsWithinCommandTimeout(world: KitWorld, count: number, meaning: string): Promise<void> {
  try {
    await world.driver.time.measure('other awaited states', () =>
      withinCommandTimeout(world.provider.received(count), `${count} requests`),
    );
  } catch {
    expect.fail(`the provider received ${world.provider.requests.length} of ${count} requests: ${meaning}`);
  }
}
