import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClassicMessage, ClassicPart } from './classic-api.js';
import { historyPage, type MessagePages } from './history-page.js';
import { history } from './projection.js';

const text = (value: string): ClassicPart => ({ id: `prt_${value}`, type: 'text', text: value });
let clock = 1_000;
const message = (id: string, role: 'user' | 'assistant', parts: ClassicPart[], summary = false): ClassicMessage => {
  clock += 10;
  return {
    info: {
      id,
      role,
      time: { created: clock, completed: role === 'assistant' ? clock + 5 : undefined },
      summary,
    },
    parts,
  };
};
const call = (callID: string): ClassicPart => ({
  id: `prt_${callID}`,
  type: 'tool',
  tool: 'bash',
  callID,
  state: { status: 'completed', input: {}, output: callID },
});

// A session's messages as OpenCode stores them, oldest first: a compaction request and its summary among them.
const stored = [
  message('msg_u1', 'user', [text('one')]),
  message('msg_a1', 'assistant', [text('running'), call('c1'), call('c2')]),
  message('msg_c', 'user', [{ id: 'prt_compaction', type: 'compaction' }]),
  message('msg_s', 'assistant', [text('summary')], true),
  message('msg_u2', 'user', [text('two')]),
  message('msg_a2', 'assistant', [text('done')]),
];
const kitIds = new Map([
  ['msg_u1', 'm-1'],
  ['msg_u2', 'm-2'],
]);

/** OpenCode's route: the newest `limit` before an opaque cursor, oldest first, with the next cursor. */
function route(asked: (string | undefined)[]): MessagePages {
  return async (limit, before) => {
    asked.push(before);
    const end = before === undefined ? stored.length : Number(Buffer.from(before, 'base64url').toString());
    const start = Math.max(0, end - limit);
    return {
      messages: stored.slice(start, end),
      next: start > 0 ? Buffer.from(String(start)).toString('base64url') : undefined,
    };
  };
}

/** The route walked with a small page, so the walk crosses pages. */
function smallPages(asked: (string | undefined)[]): MessagePages {
  const pages = route(asked);
  return (_limit, before) => pages(2, before);
}

const all = history(stored, kitIds);

test('pages read newest first, each before the oldest of the last, give the whole history once', async () => {
  const read: string[][] = [];
  let before: string | undefined;
  for (;;) {
    const page = await historyPage(smallPages([]), kitIds, 2, before);
    assert.ok(page);
    if (page.length === 0) break;
    read.unshift(page.map((m) => m.id));
    before = page[0]!.id;
  }
  assert.deepEqual(
    read.flat(),
    all.map((m) => m.id),
  );
  assert.deepEqual(
    all.map((m) => m.id),
    ['m-1', 'msg_a1', 'prt_c1', 'prt_c2', 'msg_s', 'm-2', 'msg_a2'],
  );
});

test('a page before a tool result holds its assistant message and the results before it', async () => {
  const page = await historyPage(smallPages([]), kitIds, 3, 'prt_c2');
  assert.deepEqual(
    page?.map((m) => m.id),
    ['m-1', 'msg_a1', 'prt_c1'],
  );
});

test('the walk stops once it holds the message and the page before it', async () => {
  const asked: (string | undefined)[] = [];
  const page = await historyPage(smallPages(asked), kitIds, 1, 'm-2');
  assert.deepEqual(
    page?.map((m) => m.id),
    ['msg_s'],
  );
  assert.equal(asked.length, 2);
});

test('a page has the sequence numbers the whole history has', async () => {
  const page = await historyPage(route([]), kitIds, 3, 'msg_a2');
  assert.deepEqual(page, all.slice(3, 6));
});

test('a message the session does not have is not found', async () => {
  assert.equal(await historyPage(smallPages([]), kitIds, 2, 'm-9'), undefined);
});
