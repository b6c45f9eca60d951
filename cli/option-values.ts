import { KitInputError } from '../harness/input-error.js';
import { TIMEOUT_SCALE_RANGE } from '../harness/driver/runtime-driver.js';

/**
 * Coercions that refuse a value a user cannot have meant, naming the flag: yargs turns an empty
 * or missing value into `''` or `[]`, which would otherwise silently fall back to a default
 * (`--adapter ""` running the reference, `--markdown "$UNSET"` writing nothing).
 */
export function nonEmpty(flag: string) {
  return (given: string | string[]): string => {
    const value = onlyOnce(flag, given);
    if (value.trim() === '') throw new KitInputError(flag, 'needs a value, not an empty one');
    return value;
  };
}

/** A flag given twice reaches a coercion as a list: which value was meant is the user's to say. */
function onlyOnce<T>(flag: string, value: T | T[]): T {
  if (Array.isArray(value)) throw new KitInputError(flag, `is given ${value.length} times: give it once`);
  return value;
}

/** The same for an option that takes several values: a bare `--rule` is refused, as is `--rule ""`. */
export function nonEmptyList(flag: string) {
  const each = nonEmpty(flag);
  return (values: string[]): string[] => {
    if (values.length === 0) throw new KitInputError(flag, 'needs at least one value');
    return values.map(each);
  };
}

/** A string option whose value must be given and not be empty. */
export function textOption(flag: string, describe: string) {
  return { type: 'string' as const, describe, coerce: nonEmpty(flag) };
}

export { TIMEOUT_SCALE_RANGE };

/** `--timeout-scale`: a finite factor within a range that keeps timeouts between 0.5 s and 500 s. */
export function timeoutScale(given: number | number[]): number {
  const value = onlyOnce('--timeout-scale', given);
  const { min, max } = TIMEOUT_SCALE_RANGE;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new KitInputError('--timeout-scale', `must be a number from ${min} to ${max}`);
  }
  return value;
}
