import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Refusal } from './stdio-serve.mjs';

/**
 * The kit's sessions as an adapter keeps them beside a runtime that names its own: one record per
 * kit session ID (its location, and whatever names the runtime's session), in
 * `<storeDir>/kit-sessions.json`, so a restarted adapter finds them again.
 */
export class SessionRecords {
  constructor(storeDir) {
    this.file = join(storeDir, 'kit-sessions.json');
    this.all = existsSync(this.file) ? JSON.parse(readFileSync(this.file, 'utf8')) : {};
  }

  save() {
    writeFileSync(this.file, JSON.stringify(this.all, null, 2));
  }

  /** The record of a session, or the protocol's `not-found`. */
  get(sessionId) {
    const found = this.all[sessionId];
    if (!found) throw new Refusal('not-found', `no session ${sessionId}`);
    return found;
  }

  /** `session.create`: the session of the kit's ID, or a new one named `session_<instance>_<n>` with `fields(id)`. */
  create(c, instance, fields) {
    const sessionId = c.id ?? `session_${instance}_${Object.keys(this.all).length + 1}`;
    if (this.all[sessionId]) return { sessionId, created: false };
    this.all[sessionId] = { location: c.location, ...fields(sessionId) };
    this.save();
    return { sessionId, created: true };
  }
}
