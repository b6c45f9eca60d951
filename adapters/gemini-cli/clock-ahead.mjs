/**
 * Loaded before Gemini CLI (`node --import`) in a process the adapter starts again to apply a
 * setting: its clock reads KIT_MINUTES_AHEAD minutes ahead of the machine's, so the chat recording
 * its `session/load` starts is filed under a later minute than the chat it loads (Restarts and
 * `session/load`, README.md). A process started because the kit restarted the runtime keeps the
 * clock its runtime had: what Gemini CLI does on a restart within a minute stays the kit's to see.
 */
const RealDate = Date;
const ahead = Number(process.env.KIT_MINUTES_AHEAD ?? 0) * 60_000;

function AheadDate(...args) {
  // Called without `new`, Date gives the current time as a string.
  if (!new.target) return new RealDate(RealDate.now() + ahead).toString();
  return args.length === 0 ? new RealDate(RealDate.now() + ahead) : new RealDate(...args);
}
AheadDate.prototype = RealDate.prototype;
AheadDate.now = () => RealDate.now() + ahead;
AheadDate.parse = RealDate.parse;
AheadDate.UTC = RealDate.UTC;
globalThis.Date = AheadDate;
