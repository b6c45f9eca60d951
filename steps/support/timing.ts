import { COMMAND_TIMEOUT_MS } from '../../harness/driver/runtime-driver.js';
import { suiteSettings } from '../../harness/suite/suite-settings.js';

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
