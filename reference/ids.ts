import { randomUUID } from 'node:crypto';

/** Where the runtime gets new identifiers; injected so a host can make them reproducible. */
export interface IdSource {
  next(prefix: 'ses' | 'msg' | 'ast' | 'prm' | 'cmp' | 'tool'): string;
}

export const randomIds: IdSource = { next: (prefix) => `${prefix}_${randomUUID()}` };
