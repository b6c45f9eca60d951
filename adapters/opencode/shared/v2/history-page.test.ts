import assert from 'node:assert/strict';
import { test } from 'node:test';
import { historyPage, type MessagePage } from './history-page.js';
import type { HistoryMessage } from './projection.js';

// OpenCode's messages u1, a1 (two tool results inside), u2, a2, in durable order; the route pages them newest first.
const user = (id: string, seq: number): HistoryMessage => ({ id, seq, role: 'user', hidden: false, text: id });
const assistant = (id: string, seq: number): HistoryMessage => ({
  id,
  seq,
  role: 'assistant',
  hidden: false,
  status: 'completed',
  text: '',
  toolCalls: [],
});
const tool = (assistantMessageId: string, callId: string, seq: number): HistoryMessage => ({
  id: `${assistantMessageId}/${callId}`,
  seq,
  role: 'tool',
  hidden: false,
  status: 'success',
  assistantMessageId,
  callId,
  name: 'bash',
  output: callId,
});
const shown = [
  user('u1', 1),
  assistant('a1', 2),
  tool('a1', 'c1', 3),
  tool('a1', 'c2', 4),
  user('u2', 5),
  assistant('a2', 6),
];
const route = ['a2', 'u2', 'a1', 'u1'];
const ownerOf = (message: HistoryMessage) => (message.role === 'tool' ? message.assistantMessageId : message.id);

/** The route's paging over `route`: `limit` messages after the cursor's message, newest first. */
function fetchPage(limit: number, asked: (string | undefined)[]) {
  return async (cursor: string | undefined): Promise<MessagePage> => {
    asked.push(cursor);
    const after =
      cursor === undefined ? 0 : route.indexOf(JSON.parse(Buffer.from(cursor, 'base64url').toString()).id) + 1;
    const data = route.slice(after, after + limit).map((id) => ({ id }));
    const last = data.at(-1);
    const next =
      last && Buffer.from(JSON.stringify({ id: last.id, order: 'desc', direction: 'next' })).toString('base64url');
    return { data, cursor: next === undefined ? {} : { next } };
  };
}

async function readAll(limit: number) {
  const pages: string[][] = [];
  let before: string | undefined;
  for (;;) {
    const page = await historyPage(shown, ownerOf, (id) => id, limit, before, fetchPage(limit, []));
    if (page.length === 0) return pages;
    pages.push(page.map((message) => message.id));
    before = page[0]!.id;
  }
}

test('pages of the kit messages follow the route newest first, cut at the limit inside an assistant message', async () => {
  assert.deepEqual(await readAll(2), [
    ['u2', 'a2'],
    ['a1/c1', 'a1/c2'],
    ['u1', 'a1'],
  ]);
  assert.deepEqual(await readAll(3), [
    ['a1/c2', 'u2', 'a2'],
    ['u1', 'a1', 'a1/c1'],
  ]);
  assert.deepEqual(await readAll(10), [['u1', 'a1', 'a1/c1', 'a1/c2', 'u2', 'a2']]);
});

test('the first page asks the route for the newest messages, a later one for those before the cursor', async () => {
  const asked: (string | undefined)[] = [];
  await historyPage(shown, ownerOf, (id) => id, 2, 'u2', fetchPage(2, asked));
  assert.equal(
    asked[0],
    Buffer.from(JSON.stringify({ id: 'u2', order: 'desc', direction: 'next' })).toString('base64url'),
  );
});
