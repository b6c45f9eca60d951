import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorCode } from './protocol.js';
import { ProtocolValidator, ProtocolViolation } from './validation.js';

const validator = new ProtocolValidator();

test('a well-formed command and reply pass', () => {
  const command = { cmd: 'session.create' as const, location: '/tmp/w', id: 's1' };
  validator.checkCommand(command);
  validator.checkReply(command, { ok: true, result: { sessionId: 's1', created: true } });
});

test("a malformed command is the kit's bug", () => {
  assert.throws(
    () => validator.checkCommand({ cmd: 'session.create' } as never),
    (error: unknown) => error instanceof ProtocolViolation && error.side === 'kit',
  );
});

test("a result of the wrong shape is the adapter's bug, named by command and field", () => {
  const command = { cmd: 'session.create' as const, location: '/tmp/w' };
  assert.throws(
    () => validator.checkReply(command, { ok: true, result: { sessionId: 7, created: true } }),
    (error: unknown) =>
      error instanceof ProtocolViolation &&
      error.side === 'adapter' &&
      /result of session\.create: \/sessionId must be string/.test(error.message),
  );
});

test('an error outside the closed vocabulary is refused, naming the field and the codes allowed', () => {
  const command = { cmd: 'session.run' as const, sessionId: 's1' };
  assert.throws(
    () => validator.checkReply(command, { ok: false, error: { code: 'oops' as ErrorCode, message: 'x' } }),
    (error: unknown) =>
      error instanceof ProtocolViolation &&
      /malformed reply to session\.run: \/error\/code must be equal to one of the allowed values \(invalid-input, conflict, /.test(
        error.message,
      ),
  );
});

test("the kit's JSON Schemas are valid JSON Schema 2020-12 documents", () => {
  // The validators skip this check at run time; it is made here once.
  const harness = new URL('..', import.meta.url);
  const files = readdirSync(harness, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.schema.json'),
  );
  assert.ok(files.includes('protocol/session-runtime-adapter-1.schema.json'), files.join(', '));
  for (const file of files) {
    const ajv = new Ajv2020({ strict: false });
    assert.ok(
      ajv.validateSchema(JSON.parse(readFileSync(new URL(file, harness), 'utf8'))),
      `${file}: ${JSON.stringify(ajv.errors)}`,
    );
  }
});
