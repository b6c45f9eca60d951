import type { HistoryMessage } from '../../../harness/protocol/protocol.generated.js';
import type { ClassicMessage } from './classic-api.js';
import { history } from './projection.js';

/** The fewest OpenCode messages read a page at a time when walking the history back. */
const PAGE_MIN = 20;

/** One page of OpenCode's message route: oldest first, and the cursor of the page before it. */
export type MessagePages = (
  limit: number,
  before: string | undefined,
) => Promise<{ messages: ClassicMessage[]; next: string | undefined }>;

/**
 * The newest `limit` messages before the kit's message `before` (the newest of all without it), or
 * undefined when the session has no such message. OpenCode's cursor is its own (a message ID is
 * refused), so its pages are walked back from the newest until they hold that message and `limit`
 * messages before it, or the oldest page was read. Each OpenCode message read is shown as `history`
 * shows it (an assistant message followed by its tool results, a compaction request not at all), so
 * a page is cut at `limit` of the kit's messages, whichever OpenCode message they belong to.
 */
export async function historyPage(
  pages: MessagePages,
  kitIds: ReadonlyMap<string, string>,
  limit: number,
  before: string | undefined,
): Promise<HistoryMessage[] | undefined> {
  const read: ClassicMessage[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await pages(Math.max(limit, PAGE_MIN), cursor);
    read.unshift(...page.messages);
    const shown = history(read, kitIds);
    const end = before === undefined ? shown.length : shown.findIndex((message) => message.id === before);
    if (end >= limit || page.next === undefined || page.messages.length === 0)
      return end < 0 ? undefined : shown.slice(Math.max(0, end - limit), end);
    cursor = page.next;
  }
}
