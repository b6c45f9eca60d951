/** Errors the runtime reports to its callers, each with a stable code. */
export type RuntimeErrorCode = 'invalid-input' | 'conflict' | 'not-found' | 'busy';

export class RuntimeError extends Error {
  constructor(
    readonly code: RuntimeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RuntimeError';
  }
}
