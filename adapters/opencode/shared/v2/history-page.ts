import type { HistoryMessage } from './projection.js';

/** One answer of OpenCode's message route: messages newest first, and the cursor after the oldest. */
export interface MessagePage {
  data: { id: string }[];
  cursor: { next?: string };
}

/**
 * OpenCode's cursor for the messages older than `id`, newest first: base64url JSON of the message's
 * ID, the order and the direction, as its message route encodes `cursor.next` (1.18.33).
 */
export function messageCursor(id: string): string {
  return Buffer.from(JSON.stringify({ id, order: 'desc', direction: 'next' })).toString('base64url');
}

/**
 * One page of the history as the kit reads it (the newest `limit` messages before `before`, in
 * durable order), from the pages of OpenCode's message route (`fetchPage`: newest first, after a
 * cursor or from the newest). Each OpenCode message is shown as `history` shows it (`shown`, with
 * `ownerOf` naming the OpenCode message each belongs to): an assistant message with the tool results
 * OpenCode keeps inside it, so a page is cut at `limit` of the kit's messages, and a page that must
 * end before a tool result starts with its assistant message and the results before it.
 */
export async function historyPage(
  shown: HistoryMessage[],
  ownerOf: (message: HistoryMessage) => string,
  openCodeId: (kitId: string) => string,
  limit: number,
  before: string | undefined,
  fetchPage: (cursor: string | undefined) => Promise<MessagePage>,
): Promise<HistoryMessage[]> {
  const owned = new Map<string, HistoryMessage[]>();
  for (const message of shown) owned.set(ownerOf(message), [...(owned.get(ownerOf(message)) ?? []), message]);
  // The newest messages of the page when it ends inside an OpenCode message (before one of its tool results).
  let head: HistoryMessage[] = [];
  let cursor: string | undefined;
  if (before !== undefined) {
    const anchor = shown.find((message) => message.id === before);
    const owner = anchor ? ownerOf(anchor) : openCodeId(before);
    if (anchor) {
      const siblings = owned.get(owner) ?? [];
      head = siblings.slice(0, siblings.indexOf(anchor));
    }
    cursor = messageCursor(owner);
  }
  const older: HistoryMessage[] = [];
  while (head.length + older.length < limit) {
    const page = await fetchPage(cursor);
    for (const message of page.data) older.unshift(...(owned.get(message.id) ?? []));
    if (page.data.length === 0 || !page.cursor.next) break;
    cursor = page.cursor.next;
  }
  return [...older, ...head].slice(-limit);
}
