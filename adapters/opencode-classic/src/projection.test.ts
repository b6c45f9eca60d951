import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventTime, history, kitEvents } from './projection.js';

// An ID as OpenCode makes it: 12 hex digits of (ms × 4096 + counter), cut to 48 bits, then 14 random characters.
const idAt = (ms: number, counter = 1) =>
  `evt_${((BigInt(ms) * 4096n + BigInt(counter)) & 0xffffffffffffn).toString(16).padStart(12, '0')}AbCdEfGhIjKlMn`;

test("an event's time is read back from its ID, the latest such time not after now", () => {
  const at = Date.UTC(2026, 10, 28, 12, 0, 0, 123);
  assert.equal(eventTime(idAt(at, 7), at + 5_000), at);
  assert.equal(eventTime(idAt(at), at), at);
});

test("the kit numbers a session's events from 1, OpenCode from 0", () => {
  const at = Date.UTC(2026, 10, 28, 12, 0, 0, 0);
  const events = kitEvents(
    [
      { id: idAt(at), aggregate_id: 'ses_1', seq: 0, type: 'session.created.1', data: {} },
      { id: idAt(at + 1), aggregate_id: 'ses_1', seq: 1, type: 'message.updated.1', data: {} },
    ],
    at + 10,
  );
  assert.deepEqual(events, [
    { seq: 1, type: 'session.created.1', at: '2026-11-28T12:00:00.000Z' },
    { seq: 2, type: 'message.updated.1', at: '2026-11-28T12:00:00.001Z' },
  ]);
});

test("a tool's attachments are its files' data URLs, kept whole when the part is pruned", () => {
  const [, tool] = history(
    [
      {
        info: { id: 'msg_1', role: 'assistant', time: { created: 1, completed: 2 } },
        parts: [
          {
            id: 'prt_1',
            type: 'tool',
            tool: 'read',
            callID: 'i',
            state: {
              status: 'completed',
              input: { filePath: 'pixel.png' },
              output: 'Image read successfully',
              time: { start: 1, end: 2, compacted: 3 },
              attachments: [{ type: 'file', mime: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' }],
            },
          },
        ],
      },
    ],
    new Map(),
  );
  assert.deepEqual(tool, {
    id: 'prt_1',
    seq: 1,
    role: 'tool',
    hidden: false,
    status: 'success',
    assistantMessageId: 'msg_1',
    callId: 'i',
    name: 'read',
    output: 'Image read successfully',
    pruned: true,
    attachments: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
  });
});
