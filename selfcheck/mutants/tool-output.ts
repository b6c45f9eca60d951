import type { Mutant } from './mutant.js';

export const toolOutput: Mutant[] = [
  {
    name: 'the tool output limit ignores bytes',
    kind: 'multibyte data',
    file: 'tools/bounded-preview.ts',
    find: '  if (utf8Length(text, limit.maxBytes) > limit.maxBytes) return false;\n',
    replace: '',
    clauses: ['TOO-01 (b)'],
  },
  {
    name: 'the tool output limit counts no lines',
    file: 'tools/bounded-preview.ts',
    find: '    if (++lines > limit.maxLines) return false;',
    replace: '    if (++lines > Number.POSITIVE_INFINITY) return false;',
    clauses: ['TOO-01 (a)'],
  },
  {
    name: 'the tool output limit depends on the provider',
    file: 'runtime.ts',
    find: 'new ModelToolOutputBounding(this.toolOutputFiles, options.toolOutput?.limit ?? DEFAULT_TOOL_OUTPUT_LIMIT, diagnostics);',
    replace:
      "new ModelToolOutputBounding(this.toolOutputFiles, options.toolOutput?.limit ?? DEFAULT_TOOL_OUTPUT_LIMIT, diagnostics);\n    if (options.provider.dialect === 'anthropic-messages') this.bounding.configure = () => {};",
    clauses: ['TOO-02 (a)', 'TOO-02 (b)'],
  },
  {
    name: 'bounding keeps only the head',
    file: 'tools/bounded-preview.ts',
    find: '    ...(tail.lines > 0 ? [output.slice(tail.start)] : []),\n',
    replace: '',
    clauses: ['TOO-03 (b)'],
  },
  {
    name: 'a bounded output does not say where its complete text is',
    file: 'tools/model-tool-output.ts',
    find: 'return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    replace: 'return { ...result, output: boundedPreview(text, limit, LOSSY_MARKER), outputPath: path };',
    clauses: ['TOO-04 (a)'],
  },
  {
    name: 'every managed file gets the same name',
    file: 'tools/managed-tool-output-files.ts',
    find: "join(this.directory, this.options.ids.next('tool'))",
    replace: "join(this.directory, 'tool_output')",
    clauses: ['TOO-05 (a)'],
  },
  {
    name: 'the read tool refuses managed output paths',
    file: 'runtime.ts',
    find: 'readTool((path) => this.toolOutputFiles.manages(path))',
    replace: 'readTool(() => false)',
    clauses: ['TOO-05 (d)'],
  },
  {
    name: 'the read tool accepts any absolute path',
    file: 'tools/location-paths.ts',
    find: '    if (allowed(path)) return path;',
    replace: '    return path;',
    clauses: ['TOO-05 (f)', 'TLS-01 (d)'],
  },
  {
    name: 'the managed file is written in another encoding',
    kind: 'multibyte data',
    file: 'tools/managed-tool-output-files.ts',
    find: "await writeFile(path, text, { flag: 'wx' });",
    replace: "await writeFile(path, text.toString('latin1'), { flag: 'wx' });",
    clauses: ['TOO-06 (a)'],
  },
  {
    name: 'a managed file that cannot be written fails the tool',
    file: 'tools/model-tool-output.ts',
    find: '      return { ...result, output: boundedPreview(text, limit, LOSSY_MARKER) };',
    replace: "      return { status: 'error', output: `the tool output could not be kept: ${error}` };",
    clauses: ['TOO-07 (a)'],
  },
  {
    name: 'raw output is published before it is bounded',
    file: 'runner/turn-projection.ts',
    find: 'async (result) => void settle(await this.deps.tools.bound(result)),',
    replace:
      'async (result) => {\n          settle(result);\n          settle(await this.deps.tools.bound(result));\n        },',
    clauses: ['TOO-08 (a)'],
  },
  {
    name: 'the settlement keeps the raw output beside the bounded one in its durable record',
    ownMeansOnly: true,
    file: 'tools/model-tool-output.ts',
    find: 'return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    replace:
      'return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path, complete: text };',
    clauses: ['TOO-08 (a)'],
  },
  {
    name: 'the complete output is staged in a file of the store beside the managed one and left there',
    kind: 'atomicity',
    ownMeansOnly: true,
    file: 'tools/managed-tool-output-files.ts',
    find: "    await writeFile(path, text, { flag: 'wx' });",
    replace:
      "    const staged = join(dirname(this.directory), `staged-${path.slice(this.directory.length + 1)}`);\n    await writeFile(staged, text);\n    await writeFile(path, await readFile(staged), { flag: 'wx' });",
    also: [
      {
        file: 'tools/managed-tool-output-files.ts',
        find: "import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';",
        replace: "import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';",
      },
    ],
    clauses: ['TOO-08 (a)'],
  },
  {
    name: 'bounding drops the structured result',
    file: 'tools/model-tool-output.ts',
    find: 'return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    replace:
      'return { status: result.status, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    clauses: ['TOO-09 (a)'],
  },
  {
    name: 'bounding replaces the path the tool kept with a fallback file',
    file: 'tools/model-tool-output.ts',
    find: '    if (result.outputPath !== undefined) return { ...result, output: boundedPreview(text, limit, savedMarker(result.outputPath)) };\n',
    replace: '',
    clauses: ['TOO-10 (a)'],
  },
  {
    name: 'every output gets a marker and a file',
    file: 'tools/model-tool-output.ts',
    find: '    if (withinLimit(text, limit)) return result;',
    replace: '    if (text.length === 0) return result;',
    clauses: ['TOO-11 (c)', 'TOO-11 (d)'],
  },
  {
    name: 'managed files never expire',
    file: 'tools/managed-tool-output-files.ts',
    find: 'if ((await stat(path)).mtime.getTime() <= expiredBefore)',
    replace: 'if ((await stat(path)).mtime.getTime() <= expiredBefore - Infinity)',
    clauses: ['TOO-13 (b)'],
  },
  {
    name: 'provider-executed results are cut down like local tool output',
    file: 'runner/turn-projection.ts',
    find: "return [...this.providerBlocks.values()].map(({ block, input }) => input === '' ? block : { ...block, input: JSON.parse(input) });",
    replace:
      "    return [...this.providerBlocks.values()].map(({ block, input }) => (input === '' ? { ...block, content: Array.isArray(block.content) ? block.content.slice(0, 1) : block.content } : { ...block, input: JSON.parse(input) }));",
    clauses: ['TOO-12 (a)'],
  },
  {
    name: 'the byte limit counts UTF-16 units',
    file: 'tools/bounded-preview.ts',
    find: "  return Buffer.byteLength(text, 'utf8');",
    replace: '  return text.length;',
    clauses: ['TOO-01 (c)'],
  },
  {
    name: 'a byte cut may split a character',
    file: 'tools/bounded-preview.ts',
    find: 'return insidePair(text, at) ? at - 1 : at;',
    replace: 'return at;',
    clauses: ['TOO-01 (c)'],
  },
  {
    name: 'a final line break counts as one more line',
    file: 'tools/bounded-preview.ts',
    find: "for (let at = text.indexOf('\\n'); at >= 0 && at < text.length - 1; at = text.indexOf('\\n', at + 1)) {",
    replace: "for (let at = text.indexOf('\\n'); at >= 0 && at < text.length; at = text.indexOf('\\n', at + 1)) {",
    clauses: ['TOO-11 (a)'],
  },
  {
    name: 'a carriage return also ends a line',
    file: 'tools/bounded-preview.ts',
    find: '  let lines = text.length === 0 ? 0 : 1;',
    replace: '  let lines = (text.length === 0 ? 0 : 1) + (text.match(/\\r/g)?.length ?? 0);',
    clauses: ['TOO-11 (a)', 'TOO-11 (b)'],
  },
  {
    name: 'bounding keeps only the tail',
    file: 'tools/bounded-preview.ts',
    find: '    ...(head.lines > 0 ? [output.slice(0, head.end)] : []),',
    replace: '',
    clauses: ['TOO-03 (a)'],
  },
  {
    name: 'a cut output starts after its first line',
    kind: 'edge value',
    file: 'tools/bounded-preview.ts',
    find: '    ...(head.lines > 0 ? [output.slice(0, head.end)] : []),',
    replace: "    ...(head.lines > 0 ? [output.slice(output.indexOf('\\n') + 1, head.end)] : []),",
    clauses: ['TOO-03 (a)'],
  },
  {
    // What follows the head, as long as the tail would be, stands in for the tail.
    name: 'a cut output continues after its head instead of keeping the end',
    file: 'tools/bounded-preview.ts',
    find: '    ...(tail.lines > 0 ? [output.slice(tail.start)] : []),',
    replace: '    ...(tail.lines > 0 ? [output.slice(head.end + 1, head.end + 1 + output.length - tail.start)] : []),',
    clauses: ['TOO-03 (b)'],
  },
  {
    name: 'the chat-completions dialect cuts tool results to a length of its own',
    file: 'provider/openai-chat.ts',
    find: "return [{ role: 'tool', tool_call_id: message.callId, content: message.output ?? INTERRUPTED_TOOL_OUTPUT }];",
    replace:
      "return [{ role: 'tool', tool_call_id: message.callId, content: (message.output ?? INTERRUPTED_TOOL_OUTPUT).slice(0, 200) }];",
    clauses: ['TOO-02 (a)'],
  },
  {
    // A dialect billed in tokens has its byte limit read as a token count, four bytes each.
    name: 'the byte limit is read as tokens for a provider of another dialect',
    file: 'runtime.ts',
    find: '      options.toolOutput?.limit ?? DEFAULT_TOOL_OUTPUT_LIMIT,\n      diagnostics,\n    );',
    replace: `      options.toolOutput?.limit ?? DEFAULT_TOOL_OUTPUT_LIMIT,
      diagnostics,
    );
    if (options.provider.dialect !== 'openai-chat') {
      const configure = this.bounding.configure.bind(this.bounding);
      this.bounding.configure = (limit) => configure({ ...limit, maxBytes: limit.maxBytes * 4 });
    }`,
    clauses: ['TOO-02 (b)'],
  },
  {
    name: 'a bounded output names its file in the text only, without the typed path',
    file: 'tools/model-tool-output.ts',
    find: 'return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    replace: 'return { ...result, output: boundedPreview(text, limit, savedMarker(path)) };',
    clauses: ['TOO-04 (b)'],
  },
  {
    name: 'the managed file holds the output with trailing whitespace trimmed',
    file: 'tools/managed-tool-output-files.ts',
    find: "await writeFile(path, text, { flag: 'wx' });",
    replace: "await writeFile(path, text.toString('utf8').trimEnd(), { flag: 'wx' });",
    clauses: ['TOO-06 (b)'],
  },
  {
    name: 'the managed file holds the bounded preview, not the complete text',
    file: 'tools/model-tool-output.ts',
    find: "const path = await this.files.write(Buffer.from(text, 'utf8'));",
    replace: "const path = await this.files.write(Buffer.from(boundedPreview(text, limit, LOSSY_MARKER), 'utf8'));",
    clauses: ['TOO-06 (a)'],
  },
  {
    name: 'a structured result is never bounded',
    file: 'tools/model-tool-output.ts',
    find: '    if (withinLimit(text, limit)) return result;',
    replace: '    if (withinLimit(text, limit) || result.structured !== undefined) return result;',
    clauses: ['TOO-09 (b)'],
  },
  {
    name: 'an output the tool kept is also mirrored, bounded, in a fallback file',
    file: 'tools/model-tool-output.ts',
    find: '    if (result.outputPath !== undefined) return { ...result, output: boundedPreview(text, limit, savedMarker(result.outputPath)) };',
    replace:
      "    if (result.outputPath !== undefined) {\n      const output = boundedPreview(text, limit, savedMarker(result.outputPath));\n      await this.files.write(Buffer.from(output, 'utf8'));\n      return { ...result, output };\n    }",
    clauses: ['TOO-10 (b)'],
  },
  {
    name: 'a provider-executed call keeps its streamed input as a string',
    file: 'runner/turn-projection.ts',
    find: "input === '' ? block : { ...block, input: JSON.parse(input) },",
    replace: "input === '' ? block : { ...block, input },",
    clauses: ['TOO-12 (c)'],
  },
  {
    name: 'replay reads the complete output back from its file',
    file: 'history/model-history.ts',
    find: "    m.role === 'tool' && m.pruned ? prunedForModel(m, prunedMessage) : m,",
    replace:
      "    m.role === 'tool' && m.pruned ? prunedForModel(m, prunedMessage) : m.role === 'tool' && m.outputPath !== undefined ? { ...m, output: readFileSync(m.outputPath, 'utf8') } : m,",
    also: [
      {
        file: 'history/model-history.ts',
        find: 'import {\n  defaultPrunedMessage,',
        replace: "import { readFileSync } from 'node:fs';\nimport {\n  defaultPrunedMessage,",
      },
    ],
    clauses: ['TOO-13 (b)'],
  },
  {
    // A failed call's output is never bounded: the limit's failure; whether bounding and
    // publishing are one region (TOO-08) cannot be told where nothing is bounded.
    name: 'the output of a failed call is stored unbounded',
    file: 'tools/model-tool-output.ts',
    find: '    if (withinLimit(text, limit)) return result;',
    replace: "    if (withinLimit(text, limit) || result.status === 'error') return result;",
    clauses: ['TOO-01 (e)'],
  },
  {
    name: 'the shell refuses every absolute path outside the location, managed outputs included',
    file: 'tools/bash-tool.ts',
    find: '    const output = await run(command, cwd, signal);',
    replace:
      "    if (absolutePathsOutside(location, command).length > 0) throw new Error('the command names paths outside the working directory');\n    const output = await run(command, cwd, signal);",
    clauses: ['TOO-05 (e)'],
  },
  {
    name: 'an output of exactly the byte limit counts as over it',
    kind: 'edge value',
    file: 'tools/bounded-preview.ts',
    find: '  if (utf8Length(text, limit.maxBytes) > limit.maxBytes) return false;',
    replace: '  if (utf8Length(text, limit.maxBytes) >= limit.maxBytes) return false;',
    clauses: ['TOO-11 (b)'],
  },
  {
    name: 'the output of a failed call is passed on unbounded',
    kind: 'counting by status',
    file: 'tools/model-tool-output.ts',
    find: '    if (withinLimit(text, limit)) return result;',
    replace: "    if (result.status === 'error' || withinLimit(text, limit)) return result;",
    clauses: ['TOO-01 (e)'],
  },
  {
    // UTF-16 code units are cut as if they were characters: an emoji at the cut loses half of itself.
    name: 'bounding cuts between the two halves of a character',
    kind: 'multibyte data',
    file: 'tools/bounded-preview.ts',
    find: '    isLowSurrogate(text.charCodeAt(at)) && isHighSurrogate(text.charCodeAt(at - 1));',
    replace: '    false && isLowSurrogate(text.charCodeAt(at)) && isHighSurrogate(text.charCodeAt(at - 1));',
    // The half character left at the cut is three bytes in UTF-8: the output overruns the byte limit.
    clauses: ['TOO-01 (c)'],
  },
  {
    name: 'lines are counted as line breaks, so one line over the limit without a final break passes unbounded',
    kind: 'edge value',
    file: 'tools/bounded-preview.ts',
    find: '  let lines = text.length === 0 ? 0 : 1;',
    replace: '  let lines = 0;',
    clauses: ['TOO-01 (a)'],
  },
  {
    name: 'a managed output path is recognised by the prefix of the directory, so a directory beside it becomes readable',
    kind: 'containment by prefix',
    file: 'tools/managed-tool-output-files.ts',
    find: 'return dirname(absolute) === this.directory && absolute.slice(this.directory.length + 1).startsWith(PREFIX);',
    replace: 'return absolute.startsWith(this.directory);',
    clauses: ['TOO-05 (f)', 'TLS-01 (d)'],
  },
  {
    // It drops a structured-only result too (TOO-09), which only the kit's tools can return.
    name: 'a bounded settlement is rebuilt from its status and text, dropping the structured result',
    kind: 'partial comparison',
    file: 'tools/model-tool-output.ts',
    find: 'return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    replace:
      'return { status: result.status, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    clauses: ['TOO-04 (c)'],
  },
  {
    name: 'the marker of a cut output names the base name of its file, not its path',
    kind: 'partial comparison',
    file: 'tools/model-tool-output.ts',
    find: 'export const savedMarker = (path: string) => `... output truncated; the full output is saved in ${path} ...`;',
    replace:
      "export const savedMarker = (path: string) => `... output truncated; the full output is saved in ${path.slice(path.lastIndexOf('/') + 1)} ...`;",
    clauses: ['TOO-04 (a)'],
  },
  {
    name: 'a cut output keeps its structured result as a JSON string',
    file: 'tools/model-tool-output.ts',
    find: 'return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    replace:
      'return { ...result, ...(result.structured === undefined ? {} : { structured: JSON.stringify(result.structured) }), output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };',
    clauses: ['TOO-04 (c)', 'TOO-09 (a)'],
  },
  {
    name: 'managed files are named by the clock, so a second output bounded at the same time overwrites the first',
    kind: 'second occurrence',
    file: 'tools/managed-tool-output-files.ts',
    find: `const path = join(this.directory, this.options.ids.next('tool'));
    // Exclusive create: a name is never reused, even if an ID source repeated itself.
    await writeFile(path, text, { flag: 'wx' });`,
    replace: `const path = join(this.directory, \`tool_\${this.options.clock.now().getTime()}\`);
    await writeFile(path, text);`,
    clauses: ['TOO-05 (a)', 'TOO-06 (a)'],
  },
  {
    // Only a runtime made to stop between the two writes shows it: the history keeps the last.
    name: 'the raw settlement is published first, then replaced by the bounded one',
    kind: 'atomicity',
    needs: 'fault-injection',
    file: 'runner/turn-projection.ts',
    find: 'async (result) => void settle(await this.deps.tools.bound(result)),',
    replace: `async (result) => {
          settle(result);
          settle(await this.deps.tools.bound(result));
        },`,
    clauses: ['TOO-08 (b)'],
  },
  {
    // A blocked managed directory shows the claimed path (TOO-07); only a runtime made to stop
    // before the write ends shows the settlement published ahead of its file (TOO-08).
    name: 'the managed file is written in the background after the settlement naming it is published',
    kind: 'atomicity',
    needs: 'fault-injection',
    file: 'tools/managed-tool-output-files.ts',
    find: `await mkdir(this.directory, { recursive: true });
    const path = join(this.directory, this.options.ids.next('tool'));`,
    replace: `const path = join(this.directory, this.options.ids.next('tool'));
    void (async () => {
    await mkdir(this.directory, { recursive: true });`,
    also: [
      {
        file: 'tools/managed-tool-output-files.ts',
        find: `await this.options.onFileWritten?.(path);
    return path;`,
        replace: `await this.options.onFileWritten?.(path);
    })().catch(() => {});
    return path;`,
      },
    ],
    clauses: ['TOO-07 (a)', 'TOO-08 (a)'],
  },
  {
    name: 'bounding trims trailing whitespace of every output, even one within the limit',
    kind: 'edge value',
    file: 'tools/model-tool-output.ts',
    find: 'const text = result.output;',
    replace: 'const text = result.output.trimEnd();',
    also: [
      {
        file: 'tools/model-tool-output.ts',
        find: 'if (withinLimit(text, limit)) return result;',
        replace: 'if (withinLimit(text, limit)) return { ...result, output: text };',
      },
    ],
    clauses: ['TOO-11 (a)', 'TOO-06 (b)'],
  },
  {
    // Python's universal newlines, or a terminal's line discipline: the model sees other bytes than the tool gave.
    name: 'tool output has its CRLF line ends made LF before it is bounded or passed on',
    file: 'tools/model-tool-output.ts',
    find: `  async bound(result: ToolResult): Promise<ToolResult> {
    const text = result.output;`,
    replace: `  async bound(raw: ToolResult): Promise<ToolResult> {
    const result = { ...raw, output: raw.output.replace(/\\r\\n/g, '\\n') };
    const text = result.output;`,
    clauses: ['TOO-11 (a)'],
  },
  {
    name: 'the complete output is written to its managed file as latin1, losing every character beyond it',
    kind: 'multibyte data',
    file: 'tools/model-tool-output.ts',
    find: `const path = await this.files.write(Buffer.from(text, 'utf8'));`,
    replace: `const path = await this.files.write(Buffer.from(text, 'latin1'));`,
    clauses: ['TOO-06 (a)'],
  },
  // TOO-01 (stale cache): identical oversized outputs reuse the first bounded result, whatever the limit is now.
  {
    name: 'bounded results are memoised by output text: a repeated output reuses the preview cut for an earlier limit',
    kind: 'stale cache',
    clauses: ['TOO-01 (d)'],
    file: 'tools/model-tool-output.ts',
    find: `      const path = await this.files.write(Buffer.from(text, 'utf8'));
      return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };`,
    replace: `      // The same output (a repeated command) is kept once.
      const kept = this.kept.get(text);
      if (kept) return { ...result, output: kept.output, outputPath: kept.path };
      const path = await this.files.write(Buffer.from(text, 'utf8'));
      const output = boundedPreview(text, limit, savedMarker(path));
      this.kept.set(text, { output, path });
      return { ...result, output, outputPath: path };`,
    also: [
      {
        file: 'tools/model-tool-output.ts',
        find: `export class ModelToolOutputBounding {`,
        replace: `export class ModelToolOutputBounding {
  private readonly kept = new Map<string, { output: string; path: string }>();`,
      },
    ],
  },
  // TOO-05/TLS-01: the read allow-list is the set of files this process wrote.
  {
    name: 'the read tool allows only managed files written by this process (an in-memory set lost on restart)',
    kind: 'state held only in memory',
    clauses: ['TOO-05 (d)', 'TLS-01 (e)'],
    file: 'tools/managed-tool-output-files.ts',
    find: `    const absolute = resolve(path);
    return dirname(absolute) === this.directory && absolute.slice(this.directory.length + 1).startsWith(PREFIX);`,
    replace: `    return this.written.has(resolve(path));`,
    also: [
      {
        file: 'tools/managed-tool-output-files.ts',
        find: `await writeFile(path, text, { flag: 'wx' });`,
        replace: `await writeFile(path, text, { flag: 'wx' });
    this.written.add(path);`,
      },
      {
        file: 'tools/managed-tool-output-files.ts',
        find: `export class ManagedToolOutputFiles {
  readonly directory: string;`,
        replace: `export class ManagedToolOutputFiles {
  readonly directory: string;
  /** The files this runtime kept, which its tools may read. */
  private readonly written = new Set<string>();`,
      },
    ],
  },
  // TOO-10: metadata keeps the tool's path, the preview names a fallback file of the shaped text.
  {
    name: "a tool's own complete-output path stays in the record, but the preview names a fallback file holding only the shaped text",
    needs: 'kit-tools',
    clauses: ['TOO-10 (b)'],
    file: 'tools/model-tool-output.ts',
    find: `    if (result.outputPath !== undefined)
      return { ...result, output: boundedPreview(text, limit, savedMarker(result.outputPath)) };`,
    replace: ``,
    also: [
      {
        file: 'tools/model-tool-output.ts',
        find: `return { ...result, output: boundedPreview(text, limit, savedMarker(path)), outputPath: path };`,
        replace: `return {
        ...result,
        output: boundedPreview(text, limit, savedMarker(path)),
        outputPath: result.outputPath ?? path,
      };`,
      },
    ],
  },
  {
    name: "a tool's own complete-output path is named in the text but dropped from the typed field",
    file: 'tools/model-tool-output.ts',
    find: '      return { ...result, output: boundedPreview(text, limit, savedMarker(result.outputPath)) };',
    replace:
      '      return { ...result, output: boundedPreview(text, limit, savedMarker(result.outputPath)), outputPath: undefined };',
    clauses: ['TOO-10 (a)'],
  },
  // TOO-12: replay rebuilds hosted results from the fields it knows; the rest of the provider's payload is lost.
  {
    name: "provider-executed results are replayed with only the fields the runtime knows; the rest of the provider's payload is dropped",
    kind: 'partial comparison',
    clauses: ['TOO-12 (c)'],
    file: 'provider/anthropic-messages.ts',
    find: `...((message.providerBlocks ?? []) as ContentBlock[]),`,
    replace: `...(message.providerBlocks ?? []).map((block) => {
      // The fields a search result is made of, as the runtime knows them.
      const { content } = block as { content?: unknown };
      if (!Array.isArray(content)) return block as ContentBlock;
      const known = content.map(({ type, url, title, encrypted_content }) => ({ type, url, title, encrypted_content }));
      return { ...block, content: known } as unknown as ContentBlock;
    }),`,
  },
  // TOO-07 (d): the lossy output must say that text was lost.
  {
    name: 'a managed file that cannot be written leaves the head and tail joined with no word of what was lost',
    kind: 'edge value',
    file: 'tools/model-tool-output.ts',
    find: '      return { ...result, output: boundedPreview(text, limit, LOSSY_MARKER) };',
    replace: "      return { ...result, output: boundedPreview(text, limit, '') };",
    clauses: ['TOO-07 (d)'],
  },
  {
    name: 'a managed file that cannot be written leaves the output cut to the limit from its start, silently',
    kind: 'partial comparison',
    file: 'tools/model-tool-output.ts',
    find: '      return { ...result, output: boundedPreview(text, limit, LOSSY_MARKER) };',
    replace: `      let head = text.split('\\n').slice(0, limit.maxLines).join('\\n');
      while (Buffer.byteLength(head, 'utf8') > limit.maxBytes) head = head.slice(0, -1);
      return { ...result, output: head };`,
    clauses: ['TOO-07 (a)'],
  },
  // TOO-01 (f): a settlement is bounded once, as one text, not part by part.
  {
    name: "a failed command's output is bounded and its exit status added after, outside the limit",
    kind: 'ordering in time',
    file: 'tools/tool-registry.ts',
    find: '  bound(result: ToolResult): Promise<ToolResult> {\n    return this.bounding.bound(result);\n  }',
    replace:
      "  async bound(result: ToolResult): Promise<ToolResult> {\n    // The command's output is bounded; its exit status is added after, as a part of its own.\n    const status = result.status === 'error' ? /\\nexit status [^\\n]*$/.exec(result.output) : null;\n    if (!status) return this.bounding.bound(result);\n    const bounded = await this.bounding.bound({ ...result, output: result.output.slice(0, status.index) });\n    return { ...bounded, output: bounded.output + status[0] };\n  }",
    clauses: ['TOO-01 (f)'],
  },
  {
    name: 'the byte limit holds each line on its own, not the lines together',
    kind: 'partial comparison',
    file: 'tools/model-tool-output.ts',
    find: '    if (withinLimit(text, limit)) return result;',
    replace:
      "    // Each line is held to the byte limit on its own; the lines together only to the line limit.\n    if (withinLimit(text, { ...limit, maxBytes: Number.POSITIVE_INFINITY }) && text.split('\\n').every((line) => withinLimit(line, limit)))\n      return result;",
    clauses: ['TOO-01 (f)'],
  },
  {
    // The two line breaks around the marker are left out of the byte budget.
    name: 'the byte budget of a cut output forgets the line breaks around the marker',
    kind: 'edge value',
    file: 'tools/bounded-preview.ts',
    find: '  const byteBudget = limit.maxBytes - markerBytes - 2;',
    replace: '  const byteBudget = limit.maxBytes - markerBytes;',
    clauses: ['TOO-01 (b)'],
  },
  {
    name: 'a configured limit only ever raises the limit in force',
    kind: 'configuration precedence',
    file: 'tools/model-tool-output.ts',
    find: '    this.limit = limit;',
    replace:
      '    this.limit = { maxLines: Math.max(this.limit.maxLines, limit.maxLines), maxBytes: Math.max(this.limit.maxBytes, limit.maxBytes) };',
    clauses: ['TOO-01 (d)'],
  },
  // TOO-05 (c): one directory for every session and location.
  {
    name: 'each session keeps its complete outputs in a directory of its own',
    file: 'tools/managed-tool-output-files.ts',
    find: "  async write(text: Buffer): Promise<string> {\n    await mkdir(this.directory, { recursive: true });\n    const path = join(this.directory, this.options.ids.next('tool'));",
    replace:
      "  async write(text: Buffer, scope = ''): Promise<string> {\n    await mkdir(join(this.directory, scope), { recursive: true });\n    const path = join(this.directory, scope, this.options.ids.next('tool'));",
    also: [
      {
        file: 'tools/model-tool-output.ts',
        find: '  async bound(result: ToolResult): Promise<ToolResult> {',
        replace: "  async bound(result: ToolResult, scope = ''): Promise<ToolResult> {",
      },
      {
        file: 'tools/model-tool-output.ts',
        find: "      const path = await this.files.write(Buffer.from(text, 'utf8'));",
        replace: "      const path = await this.files.write(Buffer.from(text, 'utf8'), scope);",
      },
      {
        file: 'tools/tool-registry.ts',
        find: '  bound(result: ToolResult): Promise<ToolResult> {\n    return this.bounding.bound(result);',
        replace:
          '  bound(result: ToolResult, scope?: string): Promise<ToolResult> {\n    return this.bounding.bound(result, scope);',
      },
      {
        file: 'runner/turn-projection.ts',
        find: '        async (result) => void settle(await this.deps.tools.bound(result)),',
        replace: '        async (result) => void settle(await this.deps.tools.bound(result, this.sessionId)),',
      },
    ],
    clauses: ['TOO-05 (c)'],
  },
  {
    name: 'the managed file keeps the preview the model reads, not the complete text',
    file: 'tools/model-tool-output.ts',
    find: "      const path = await this.files.write(Buffer.from(text, 'utf8'));",
    replace: "      const path = await this.files.write(Buffer.from(boundedPreview(text, limit, ''), 'utf8'));",
    clauses: ['TOO-09 (c)'],
  },
  {
    // The structured-only result's text is the compact JSON, which no line limit reaches.
    name: 'a structured-only result is bounded as compact JSON, by bytes alone',
    file: 'tools/tool-registry.ts',
    find: "    output: text ?? JSON.stringify(structured, null, 2) ?? '',",
    replace: "    output: text ?? JSON.stringify(structured) ?? '',",
    clauses: ['TOO-09 (b)'],
  },
  {
    name: 'the managed file of a structured-only result holds its fields one per line, not JSON',
    file: 'tools/model-tool-output.ts',
    find: "      const path = await this.files.write(Buffer.from(text, 'utf8'));",
    replace:
      "      const path = await this.files.write(Buffer.from(result.structured !== undefined && typeof result.structured === 'object' && result.structured !== null ? Object.entries(result.structured).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\\n') : text, 'utf8'));",
    clauses: ['TOO-09 (c)'],
  },
  {
    name: 'a managed file that cannot be written is still named as the complete output',
    file: 'tools/model-tool-output.ts',
    find: '      return { ...result, output: boundedPreview(text, limit, LOSSY_MARKER) };',
    replace:
      '      return { ...result, output: boundedPreview(text, limit, LOSSY_MARKER), outputPath: `${this.files.directory}/unwritten` };',
    clauses: ['TOO-07 (c)'],
  },
  {
    name: 'a managed file that cannot be written is not reported to operators',
    file: 'tools/model-tool-output.ts',
    find: '      this.diagnostics(\n',
    replace: '      ((_message: string) => undefined)(\n',
    clauses: ['TOO-07 (e)'],
  },
  {
    // Best effort: the path is named whether or not the write went through.
    name: 'a managed file is written best effort: a failed write is ignored and its path still named',
    file: 'tools/managed-tool-output-files.ts',
    find: "    await writeFile(path, text, { flag: 'wx' });\n    // The modification time is the runtime's clock, so retention follows the clock a host gives it.\n    const now = this.options.clock.now();\n    await utimes(path, now, now);",
    replace:
      "    await writeFile(path, text, { flag: 'wx' }).catch(() => undefined);\n    const now = this.options.clock.now();\n    await utimes(path, now, now).catch(() => undefined);",
    also: [
      {
        file: 'tools/managed-tool-output-files.ts',
        find: '    await mkdir(this.directory, { recursive: true });\n    const path',
        replace: '    await mkdir(this.directory, { recursive: true }).catch(() => undefined);\n    const path',
      },
    ],
    clauses: ['TOO-07 (c)', 'TOO-07 (d)', 'TOO-07 (e)'],
  },
  {
    name: 'each complete output is written into a directory of its own under the managed one',
    file: 'tools/managed-tool-output-files.ts',
    find: "    const path = join(this.directory, this.options.ids.next('tool'));",
    replace:
      "    const id = this.options.ids.next('tool');\n    const path = join(this.directory, id, id);\n    await mkdir(dirname(path), { recursive: true });",
    also: [
      {
        file: 'tools/managed-tool-output-files.ts',
        find: '    return dirname(absolute) === this.directory && absolute.slice(this.directory.length + 1).startsWith(PREFIX);',
        replace:
          "    return dirname(dirname(absolute)) === this.directory && absolute.slice(absolute.lastIndexOf('/') + 1).startsWith(PREFIX);",
      },
    ],
    clauses: ['TOO-05 (b)'],
  },
  {
    // A symbolic link in the directory to a blob kept in a hidden store below it.
    name: 'the managed files are links into a hidden store below the managed directory',
    file: 'tools/managed-tool-output-files.ts',
    find: "    await writeFile(path, text, { flag: 'wx' });",
    replace: `    const blob = join(this.directory, '.blobs', path.slice(this.directory.length + 1));
    await mkdir(dirname(blob), { recursive: true });
    await writeFile(blob, text, { flag: 'wx' });
    await symlink(blob, path);`,
    also: [
      {
        file: 'tools/managed-tool-output-files.ts',
        find: "import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';",
        replace: "import { mkdir, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';",
      },
    ],
    clauses: ['TOO-05 (b)'],
  },
  {
    name: 'each location keeps its complete outputs in a directory of its own',
    kind: 'identity in the wrong scope',
    file: 'tools/tool-registry.ts',
    find: '      return success(output);',
    replace:
      "      return { ...success(output), scope: Buffer.from(context.location).toString('hex').slice(-24) } as ToolResult;",
    also: [
      {
        file: 'tools/model-tool-output.ts',
        find: "      const path = await this.files.write(Buffer.from(text, 'utf8'));",
        replace:
          "      const path = await this.files.write(Buffer.from(text, 'utf8'), (result as { scope?: string }).scope ?? '');",
      },
      {
        file: 'tools/managed-tool-output-files.ts',
        find: "  async write(text: Buffer): Promise<string> {\n    await mkdir(this.directory, { recursive: true });\n    const path = join(this.directory, this.options.ids.next('tool'));",
        replace:
          "  async write(text: Buffer, scope = ''): Promise<string> {\n    await mkdir(join(this.directory, scope), { recursive: true });\n    const path = join(this.directory, scope, this.options.ids.next('tool'));",
      },
      {
        file: 'tools/managed-tool-output-files.ts',
        find: '    return dirname(absolute) === this.directory && absolute.slice(this.directory.length + 1).startsWith(PREFIX);',
        replace:
          "    return absolute.startsWith(`${this.directory}/`) && absolute.slice(absolute.lastIndexOf('/') + 1).startsWith(PREFIX);",
      },
    ],
    clauses: ['TOO-05 (c)'],
  },
  {
    // The shell runs with the location as its root of absolute paths, as a sandbox would.
    name: 'the shell maps absolute paths in the command into the location',
    file: 'tools/bash-tool.ts',
    find: '    const output = await run(command, cwd, signal);',
    replace:
      '    const output = await run(command.replace(/(?<=^|[\\s\'"=<>|;&(])\\/(?=[^\\s\'"<>|;&)])/g, `${location}/`), cwd, signal);',
    clauses: ['TOO-05 (e)'],
  },
  {
    name: 'an empty output reaches the model as a text saying there was none',
    file: 'history/model-history.ts',
    find: "  return activeHistory(messages, form).map((m) =>\n    m.role === 'tool' && m.pruned ? prunedForModel(m, prunedMessage) : m,\n  );",
    replace:
      "  return activeHistory(messages, form).map((m) =>\n    m.role === 'tool' && m.pruned ? prunedForModel(m, prunedMessage) : m.role === 'tool' && m.output === '' ? { ...m, output: '(no output)' } : m,\n  );",
    clauses: ['TOO-11 (e)'],
  },
  {
    // Every output is archived; the path goes with it whether or not the model's text was cut.
    name: 'every output is archived in a managed file and its path recorded, within the limit too',
    file: 'tools/model-tool-output.ts',
    find: '    if (withinLimit(text, limit)) return result;',
    replace:
      "    if (withinLimit(text, limit) && result.outputPath === undefined) return { ...result, outputPath: await this.files.write(Buffer.from(text, 'utf8')) };",
    clauses: ['TOO-11 (c)', 'TOO-11 (d)'],
  },
  {
    // The provider's result is kept whole for the provider, and a copy of it is bounded like a local tool's output besides.
    name: 'a provider-executed result over the limit is also kept in a managed file',
    file: 'runner/turn-projection.ts',
    find: '        ...(this.providerBlocks.size > 0 ? { providerBlocks: this.completedProviderBlocks() } : {}),\n      },\n    ]);',
    replace: `        ...(this.providerBlocks.size > 0 ? { providerBlocks: this.completedProviderBlocks() } : {}),
      },
    ]);
    for (const block of this.completedProviderBlocks())
      if (block.tool_use_id !== undefined) void this.deps.tools.bound({ status: 'success', output: JSON.stringify(block.content) });`,
    clauses: ['TOO-12 (b)'],
  },
  {
    name: 'a provider-executed result over the limit is replaced by a bounded preview of its JSON',
    file: 'runner/turn-projection.ts',
    find: "      input === '' ? block : { ...block, input: JSON.parse(input) },",
    replace: `      input === ''
        ? (() => {
            const limit = (this.deps.tools as unknown as { bounding: { limit: ToolOutputLimit } }).bounding.limit;
            const json = JSON.stringify(block.content ?? null);
            return withinLimit(json, limit) ? block : { ...block, content: boundedPreview(json, limit, LOSSY_MARKER) };
          })()
        : { ...block, input: JSON.parse(input) },`,
    also: [
      {
        file: 'runner/turn-projection.ts',
        find: "import type { ToolResult } from '../tools/tool-registry.js';",
        replace:
          "import type { ToolResult } from '../tools/tool-registry.js';\nimport { boundedPreview, withinLimit, type ToolOutputLimit } from '../tools/bounded-preview.js';\nimport { LOSSY_MARKER } from '../tools/model-tool-output.js';",
      },
    ],
    clauses: ['TOO-12 (a)'],
  },
  {
    name: 'a provider-executed result is archived in a managed file as it completes',
    file: 'runner/turn-projection.ts',
    find: "      input === '' ? block : { ...block, input: JSON.parse(input) },",
    replace: `      input === ''
        ? (void this.deps.tools.bound({ status: 'success', output: JSON.stringify(block.content ?? null), structured: block }), block)
        : { ...block, input: JSON.parse(input) },`,
    clauses: ['TOO-12 (b)'],
  },
  {
    // A replay that finds the complete output's file gone drops the line naming it from the bounded output it sends.
    name: 'a request replays a bounded output without the marker of its file once the file is gone',
    file: 'history/model-history.ts',
    find: "  return activeHistory(messages, form).map((m) =>\n    m.role === 'tool' && m.pruned ? prunedForModel(m, prunedMessage) : m,\n  );",
    replace:
      "  return activeHistory(messages, form).map((m) =>\n    m.role === 'tool' && m.pruned ? prunedForModel(m, prunedMessage) : m.role === 'tool' && m.outputPath !== undefined && m.output !== undefined && !existsSync(m.outputPath) ? { ...m, output: m.output.split('\\n').filter((line) => !line.includes(m.outputPath!)).join('\\n') } : m,\n  );",
    also: [
      {
        file: 'history/model-history.ts',
        find: 'import {\n  defaultPrunedMessage,',
        replace: "import { existsSync } from 'node:fs';\nimport {\n  defaultPrunedMessage,",
      },
    ],
    clauses: ['TOO-13 (a)'],
  },
  {
    // Outputs of earlier turns are replayed as their marker alone, the file standing in for them.
    name: 'a request replays the bounded outputs of earlier turns as their marker alone',
    kind: 'second occurrence',
    file: 'history/model-history.ts',
    find: "  return activeHistory(messages, form).map((m) =>\n    m.role === 'tool' && m.pruned ? prunedForModel(m, prunedMessage) : m,\n  );",
    replace: `  const active = activeHistory(messages, form);
  const lastUser = active.findLast((m) => m.role === 'user')?.seq ?? 0;
  return active.map((m) =>
    m.role === 'tool' && m.pruned
      ? prunedForModel(m, prunedMessage)
      : m.role === 'tool' && m.outputPath !== undefined && m.seq < lastUser
        ? { ...m, output: \`... output truncated; the full output is saved in \${m.outputPath} ...\` }
        : m,
  );`,
    clauses: ['TOO-13 (a)'],
  },
];
