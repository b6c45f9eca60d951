/** Bad input to the kit (a recording, a script, a flag): reported in one line naming where, never as a crash. */
export class KitInputError extends Error {
  constructor(
    readonly where: string,
    detail: string,
  ) {
    super(`${where}: ${detail}`);
    this.name = 'KitInputError';
  }
}
