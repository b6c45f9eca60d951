/**
 * OpenCode's IDs carry a type prefix (`ses…`, `msg_…`); the kit's may not. A kit ID is wrapped in
 * a marked prefix and unwrapped on the way back, so the mapping survives restarts without state.
 */
const SESSION_MARK = 'ses_kit_';
const MESSAGE_MARK = 'msg_kit_';

export const opencodeSessionId = (kitId: string) => (kitId.startsWith('ses') ? kitId : `${SESSION_MARK}${kitId}`);
export const kitSessionId = (id: string) => (id.startsWith(SESSION_MARK) ? id.slice(SESSION_MARK.length) : id);
export const opencodeMessageId = (kitId: string) => `${MESSAGE_MARK}${kitId}`;
export const kitMessageId = (id: string) => (id.startsWith(MESSAGE_MARK) ? id.slice(MESSAGE_MARK.length) : id);
