import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadDeclaration, RuntimeDescription } from '../protocol/protocol.js';
import { toolMeans } from './tool-means.js';

const shell = toolMeans(
  {
    protocol: 'session-runtime-adapter/1',
    runtime: { name: 'r', version: '1', language: 'x' },
    profiles: ['core'],
    capabilities: [],
    texts: {},
    shell: { tool: 'bash', commandField: 'command', statusText: 'Command exited with code {status}.' },
  } satisfies RuntimeDescription,
  { gateBlocked: async () => {}, openGate: async () => {} },
  { workspaces: '/nonexistent', timeoutMs: 1 },
);

test('through a shell, the last line is kept when the declared status text follows it on the same line, not when it is cut', () => {
  const bounded = (last: string) =>
    `line 1\nline 2\n... output truncated ...\nline 499\n${last}Command exited with code 0.`;
  const ends = (actual: string, first: string, last: string) => [
    shell.keepsLine(actual, first, 'first'),
    shell.keepsLine(actual, last, 'last'),
  ];
  assert.deepEqual(ends(bounded('line 500'), 'line 1', 'line 500'), ['kept', 'kept']);
  assert.deepEqual(ends(`${bounded('line 500')}\n`, 'line 1', 'line 500'), ['kept', 'kept']);
  assert.deepEqual(ends(bounded('line 50'), 'line 1', 'line 500'), ['kept', 'lost']);
  assert.deepEqual(ends(bounded('line 5000'), 'line 1', 'line 500'), ['kept', 'lost']);
  assert.deepEqual(ends('line 10\nline 500', 'line 1', 'line 500'), ['lost', 'kept']);
  // A shell's own label before the output's first line.
  assert.deepEqual(ends('Command: x\nOutput: line 1\n...\nline 500', 'line 1', 'line 500'), ['kept', 'kept']);
  assert.deepEqual(ends('Output: line 11\n...\nline 500', 'line 1', 'line 500'), ['lost', 'kept']);
});

test('through a shell, an output ending in a line break reads with and without it when the status text follows', () => {
  assert.deepEqual(shell.returned('line 1\nCommand exited with code 0.'), ['line 1', 'line 1\n']);
  assert.deepEqual(shell.returned('line 1\n\nCommand exited with code 0.'), ['line 1\n', 'line 1\n\n']);
  assert.deepEqual(shell.returned('line 1Command exited with code 0.'), ['line 1']);
});

test('through a shell, the command line it echoes above the output stands for none of the output', () => {
  const call = shell.call({ id: 'c1', name: 'produce', input: { text: 'BEGIN middle END' } })!;
  const line = String(call.input.command);
  // Only the command echoed, as written and as a structured display escapes it: the output is not shown.
  for (const echoed of [`Command: ${line}\nOutput: (empty)`, `{"command":${JSON.stringify(line)},"output":""}`]) {
    assert.equal(shell.shows(echoed, 'BEGIN'), false, echoed);
    assert.equal(shell.keepsEnd(echoed, 'BEGIN', 'head'), 'echoed', echoed);
  }
  // The command echoed and its output after it.
  assert.equal(shell.shows(`Command: ${line}\nOutput: BEGIN middle END`, 'BEGIN'), true);
  assert.equal(shell.keepsEnd(`Command: ${line}\nOutput: BEGIN middle END`, 'BEGIN', 'head'), 'kept');
  assert.equal(shell.keepsEnd(`Command: ${line}\nOutput: ... middle END`, 'BEGIN', 'head'), 'echoed');
  // Without the command echoed, an end not shown is lost.
  assert.equal(shell.keepsEnd('Output: BEGIN middle', 'e END', 'tail'), 'lost');
  assert.equal(shell.keepsEnd('Output: BEGIN middle', 'BEGIN', 'head'), 'kept');
  const lines = shell.call({ id: 'c2', name: 'produce', input: { text: 'line 1\nline 500' } })!;
  const echoedLines = `Command: ${String(lines.input.command)}\nOutput: line 10\n...`;
  assert.equal(shell.keepsLine(echoedLines, 'line 1', 'first'), 'echoed');
  assert.equal(shell.keepsLine(echoedLines, 'line 500', 'last'), 'echoed');
  // "line 1" within "line 10" of the output is not the first line kept, nor an echo.
  assert.equal(shell.keepsLine('Output: line 10\n...\nline 500', 'line 1', 'first'), 'lost');
});

/** The means of a runtime with a shell and a read tool named `tool`, taking its path in `filePath` unless told. */
const withReadTool = (
  tool: string,
  read: { pathField?: string; absolutePaths?: boolean; lines?: ReadDeclaration['lines'] } = {},
) =>
  toolMeans(
    {
      protocol: 'session-runtime-adapter/1',
      runtime: { name: 'r', version: '1', language: 'x' },
      profiles: ['core'],
      capabilities: [],
      texts: {},
      shell: { tool: 'bash', commandField: 'command' },
      read: {
        tool,
        pathField: read.pathField ?? 'filePath',
        ...(read.absolutePaths ? { absolutePaths: true } : {}),
        ...(read.lines ? { lines: read.lines } : {}),
      },
    } satisfies RuntimeDescription,
    { gateBlocked: async () => {}, openGate: async () => {} },
    { workspaces: '/nonexistent', timeoutMs: 1, location: () => '/w/project' },
  );

test("a scripted read call reaches the runtime's read tool under its declared name and path field", () => {
  const declared = withReadTool('view');
  assert.deepEqual(declared.read('i', 'pixel.png'), { id: 'i', name: 'view', input: { filePath: 'pixel.png' } });
  assert.deepEqual(declared.call({ id: 'r', name: 'read', input: { path: 'a.txt', offset: 2 } }), {
    id: 'r',
    name: 'view',
    input: { offset: 2, filePath: 'a.txt' },
  });
  assert.equal(declared.toolName('read'), 'view');
  assert.deepEqual(shell.read('i', 'pixel.png'), { id: 'i', name: 'read', input: { path: 'pixel.png' } });
});

test("a read call already in the runtime's own form passes as it is, and an undeclared read tool gets the input as written", () => {
  const pathElsewhere = withReadTool('read');
  const expressed = pathElsewhere.read('i', 'pixel.png');
  assert.deepEqual(expressed, { id: 'i', name: 'read', input: { filePath: 'pixel.png' } });
  assert.deepEqual(pathElsewhere.call(expressed), expressed);
  const written = { id: 'r', name: 'read', input: { path: 'a.txt', offset: 2, limit: 5 } };
  assert.equal(JSON.stringify(shell.call(written)), JSON.stringify(written));
  assert.deepEqual(Object.keys(pathElsewhere.call(written)!.input), ['filePath', 'offset', 'limit']);
});

test('a scripted range of lines reaches the read tool in its declared fields, counted as it counts', () => {
  const written = { id: 'r', name: 'read', input: { path: 'big.txt', offset: 10, limit: 5 } };
  const zeroBased = withReadTool('read_file', {
    lines: { offsetField: 'offset', zeroBased: true, limitField: 'limit' },
  });
  assert.deepEqual(zeroBased.call(written)!.input, { filePath: 'big.txt', offset: 9, limit: 5 });
  const inclusiveEnd = withReadTool('read_file', { lines: { offsetField: 'start_line', endField: 'end_line' } });
  assert.deepEqual(inclusiveEnd.call(written)!.input, { filePath: 'big.txt', start_line: 10, end_line: 14 });
  assert.deepEqual(inclusiveEnd.read('i', 'big.txt').input, { filePath: 'big.txt' });
});

test('a read tool taking absolute paths only gets a relative path resolved against the session location, an absolute one as it is', () => {
  const absolute = withReadTool('read_file', { pathField: 'file_path', absolutePaths: true });
  assert.deepEqual(absolute.read('r', 'docs/a.txt'), {
    id: 'r',
    name: 'read_file',
    input: { file_path: '/w/project/docs/a.txt' },
  });
  assert.deepEqual(absolute.read('r', '/elsewhere/b.txt'), {
    id: 'r',
    name: 'read_file',
    input: { file_path: '/elsewhere/b.txt' },
  });
  assert.deepEqual(withReadTool('view').read('r', 'docs/a.txt'), {
    id: 'r',
    name: 'view',
    input: { filePath: 'docs/a.txt' },
  });
});
