import type { Mutant } from './mutant.js';

export const tools: Mutant[] = [
  {
    name: 'the read tool follows .. out of the location',
    file: 'tools/location-paths.ts',
    find: "  if (escapes(location, target)) throw new PathRefused(path, 'the path leads outside the location');\n",
    replace: '',
    // The canonical check would still refuse `..`; a runtime without either check is the defect.
    also: [
      {
        file: 'tools/location-paths.ts',
        find: "    throw new PathRefused(path, 'a symbolic link leads outside the location');",
        replace: '',
      },
    ],
    clauses: ['TLS-01 (b)'],
  },
  {
    // A path that leads to the location's parent itself, with nothing after the `..`.
    name: 'the read tool takes a bare .. for a path inside the location',
    kind: 'edge value',
    file: 'tools/location-paths.ts',
    find: "  return rel === '..' || rel.startsWith('../') || isAbsolute(rel);",
    replace: "  return rel.startsWith('../') || isAbsolute(rel);",
    clauses: ['TLS-01 (a)'],
  },
  {
    // Where a path leads, not its form: an absolute path into the location reads as a relative one.
    name: 'the read tool takes an absolute path that leads into the location',
    kind: 'partial comparison',
    file: 'tools/location-paths.ts',
    find: '    if (allowed(path)) return path;',
    replace: '    if (allowed(path) || !escapes(location, path)) return path;',
    clauses: ['TLS-01 (d)'],
  },
  {
    name: 'the read tool follows symbolic links out of the location',
    file: 'tools/location-paths.ts',
    find: "    throw new PathRefused(path, 'a symbolic link leads outside the location');",
    replace: '',
    clauses: ['TLS-01 (c)'],
  },
  {
    name: 'directory listings mix directories and files',
    file: 'tools/read-tool.ts',
    find: "a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === 'directory' ? -1 : 1",
    replace: '(a.name < b.name ? -1 : a.name > b.name ? 1 : 0)',
    clauses: ['TLS-02 (b)'],
  },
  {
    name: 'the next page of a file repeats its last line',
    file: 'tools/read-tool.ts',
    find: 'offset - 1 + page.length < lines.length ? offset + page.length : null',
    replace: 'offset - 1 + page.length < lines.length ? offset + page.length - 1 : null',
    clauses: ['TLS-02 (e)'],
  },
  // A read tool answering as text is judged on the facts its text states (steps/tools/read.steps.ts).
  {
    name: 'the read tool answers a page of a file as text, naming its last line as the one to go on from',
    kind: 'edge value',
    file: 'tools/read-tool.ts',
    find: '      return { text: page.content, structured: page };',
    replace:
      "      return { text: `${page.content}\\n\\n[Use offset=${page.next === null ? 'none' : page.next - 1} to continue.]` };",
    clauses: ['TLS-02 (e)'],
  },
  {
    name: 'the read tool lists a directory as text, directories and files mixed',
    file: 'tools/read-tool.ts',
    find: "          text: page.entries.map((e) => (e.type === 'directory' ? `${e.name}/` : e.name)).join('\\n'),\n          structured: page,",
    replace:
      "          text: [...page.entries.map((e) => e.name).sort(), `next offset: ${page.next ?? 'none'}`].join('\\n'),",
    clauses: ['TLS-02 (a)'],
  },
  {
    name: 'the read tool answers a binary file as text, its bytes decoded as Latin-1',
    file: 'tools/read-tool.ts',
    find: "          text: bytes.toString('base64'),\n          structured: { type: 'file', encoding: 'base64', content: bytes.toString('base64') },",
    replace: "          text: bytes.toString('latin1'),",
    clauses: ['TLS-02 (f)'],
  },
  {
    name: 'apply_patch changes files before every target is checked',
    file: 'tools/apply-patch-tool.ts',
    find: '    for (const operation of operations) await preflight(operation);\n',
    replace: '',
    clauses: ['TLS-03 (c)'],
  },
  {
    name: 'a partly applied patch does not say what was applied',
    file: 'tools/apply-patch-tool.ts',
    find: '          applied: applied.map(done),',
    replace: '          applied: [],',
    clauses: ['TLS-03 (f)'],
  },
  {
    name: 'a partly applied patch says so in its message alone, naming what was not applied among what was',
    file: 'tools/apply-patch-tool.ts',
    find: '        throw new ToolFailure(`patch partly applied: ${JSON.stringify(report)}`, report);',
    replace:
      '        throw new ToolFailure(`patch partly applied: ${JSON.stringify({ applied: [...report.applied, ...report.notApplied], failed: report.failed })}`, undefined);',
    clauses: ['TLS-03 (f)'],
  },
  {
    name: 'a partly applied patch says so in its message alone, naming only what failed and what was not tried',
    file: 'tools/apply-patch-tool.ts',
    find: '        throw new ToolFailure(`patch partly applied: ${JSON.stringify(report)}`, report);',
    replace:
      '        throw new ToolFailure(`patch partly applied: ${JSON.stringify({ failed: report.failed, notApplied: report.notApplied })}`, undefined);',
    clauses: ['TLS-03 (f)'],
  },
  {
    name: 'caller values override the host overlay',
    file: 'pty/pty-environment.ts',
    find: '{ ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL }',
    replace: '{ ...overlay.observe(request.location, cwd), ...request.env, ...FORCED_TERMINAL }',
    clauses: ['PTY-01 (b)'],
  },
  {
    name: 'the overlay is observed for the location instead of the working directory',
    file: 'pty/pty-environment.ts',
    find: 'overlay.observe(request.location, cwd)',
    replace: 'overlay.observe(request.location, request.location)',
    clauses: ['PTY-02 (b)'],
  },
  {
    name: 'apply_patch contains targets by path prefix and writes beside the location without asking',
    kind: 'containment by prefix',
    file: 'tools/apply-patch-tool.ts',
    find: '    return { ...operation, target: resolveInLocation(location, operation.path), external: false };',
    replace:
      '    const target = resolve(location, operation.path);\n    return { ...operation, target, external: !target.startsWith(location) };',
    clauses: ['TLS-04 (a)'],
  },
  {
    name: 'apply_patch asks for each external target separately',
    file: 'tools/apply-patch-tool.ts',
    find: "    if (external.length > 0 && !(await authorize('external_directory'))) {",
    replace:
      "    if (external.length > 0 && !(await Promise.all(operations.filter((o) => o.external).map(() => authorize('external_directory')))).every(Boolean)) {",
    clauses: ['TLS-04 (c)'],
  },
  {
    name: 'apply_patch commits the in-location operations before asking for the external ones',
    file: 'tools/apply-patch-tool.ts',
    find: '    const external = [...new Set(',
    replace:
      '    for (const operation of operations.filter((o) => !o.external)) await commit(operation);\n    const external = [...new Set(',
    clauses: ['TLS-04 (a)'],
  },
  {
    name: 'approved external targets are not checked before committing',
    file: 'tools/apply-patch-tool.ts',
    find: '    for (const operation of operations) await preflight(operation);',
    replace: '    for (const operation of operations) if (!operation.external) await preflight(operation);',
    clauses: ['TLS-04 (d)'],
  },
  {
    // The preflight tries an update's first hunk only: a later hunk that does not match fails at
    // commit time, after the operations before it were applied.
    name: 'apply_patch preflights only the first hunk of an update',
    kind: 'second occurrence',
    file: 'tools/apply-patch-tool.ts',
    find: "if (operation.op === 'update')\n    applyChunks(await readFile(operation.target, 'utf8'), operation.chunks, operation.path);",
    replace:
      "if (operation.op === 'update')\n    applyChunks(await readFile(operation.target, 'utf8'), operation.chunks.slice(0, 1), operation.path);",
    clauses: ['TLS-04 (d)'],
  },
  {
    name: 'the shell runs without asking when the agent has no rule for it',
    file: 'tools/bash-tool.ts',
    find: "  unruled: 'ask',\n",
    replace: '',
    clauses: ['TLS-05 (c)'],
  },
  {
    name: 'the shell contains its working directory by path prefix and runs beside the location without asking',
    kind: 'containment by prefix',
    file: 'tools/bash-tool.ts',
    find: '    if (outside(location, cwd) && ',
    replace: '    if (!cwd.startsWith(location) && ',
    clauses: ['TLS-05 (e)'],
  },
  {
    name: 'absolute paths in the shell command text ask for the external directory',
    file: 'tools/bash-tool.ts',
    find: '    const output = await run(command, cwd, signal);',
    replace:
      "    if (absolutePathsOutside(location, command).length > 0 && !(await authorize('external_directory'))) throw new Error('not approved');\n    const output = await run(command, cwd, signal);",
    clauses: ['TLS-05 (g)'],
  },
  {
    name: 'a declined external working directory still runs the command in the location',
    file: 'tools/bash-tool.ts',
    find: '      throw new Error(`running in a directory outside the working directory was not approved: ${cwd}`);',
    replace: '      return run(command, location, signal);',
    clauses: ['TLS-05 (e)'],
  },
  {
    name: 'the terminal variables are defaults the caller can override',
    file: 'pty/pty-environment.ts',
    find: '{ ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL }',
    replace: '{ ...FORCED_TERMINAL, ...request.env, ...overlay.observe(request.location, cwd) }',
    clauses: ['PTY-01 (c)'],
  },
  {
    name: "the PTY's working directory is resolved against the server's, not the location",
    file: 'pty/pty-environment.ts',
    find: "  const cwd = resolve(request.location, request.cwd ?? '.');",
    replace: '  const cwd = request.cwd === undefined ? request.location : resolve(request.cwd);',
    clauses: ['PTY-02 (b)'],
  },
  {
    // Any byte above 0x7f is taken for binary, so text that is not ASCII comes back as base64.
    name: 'the read tool takes text that is not ASCII for binary',
    kind: 'multibyte data',
    file: 'tools/read-tool.ts',
    find: "  return !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);",
    replace: '  return !bytes.includes(0) && bytes.every((byte) => byte < 0x80);',
    clauses: ['TLS-02 (g)'],
  },
  {
    name: 'the read tool contains paths by prefix',
    kind: 'containment by prefix',
    file: 'tools/location-paths.ts',
    find: "  const rel = relative(root, target);\n  return rel === '..' || rel.startsWith('../') || isAbsolute(rel);",
    replace: '  return !target.startsWith(root);',
    clauses: ['TLS-01 (a)'],
  },
  {
    // The lexical check by prefix, and the canonical one only where a link is on the way.
    name: 'the read tool contains `..` by path prefix and checks canonical paths only where a link is',
    kind: 'containment by prefix',
    file: 'tools/location-paths.ts',
    find: "  if (escapes(location, target)) throw new PathRefused(path, 'the path leads outside the location');",
    replace: "  if (!target.startsWith(location)) throw new PathRefused(path, 'the path leads outside the location');",
    also: [
      {
        file: 'tools/location-paths.ts',
        find: '  if (escapes(realpathSync(location), join(realpathSync(existing), relative(existing, target)))) {',
        replace:
          '  if (realpathSync(existing) !== existing && escapes(realpathSync(location), join(realpathSync(existing), relative(existing, target)))) {',
      },
    ],
    clauses: ['TLS-01 (b)'],
  },
  {
    // The managed directory is listed once, when the runtime starts.
    name: 'the managed files readable by path are those the directory held at start',
    kind: 'stale cache',
    file: 'tools/managed-tool-output-files.ts',
    find: '    const absolute = resolve(path);\n    return dirname(absolute) === this.directory',
    replace:
      '    const absolute = resolve(path);\n    return this.atStart.includes(absolute) && dirname(absolute) === this.directory',
    also: [
      {
        file: 'tools/managed-tool-output-files.ts',
        find: '    this.directory = resolve(options.directory);\n',
        replace:
          '    this.directory = resolve(options.directory);\n    this.atStart = existsSync(this.directory) ? readdirSync(this.directory).map((name) => join(this.directory, name)) : [];\n',
      },
      {
        file: 'tools/managed-tool-output-files.ts',
        find: '  readonly directory: string;\n',
        replace: '  readonly directory: string;\n  private readonly atStart: string[];\n',
      },
      {
        file: 'tools/managed-tool-output-files.ts',
        find: "import { dirname, join, resolve } from 'node:path';",
        replace:
          "import { existsSync, readdirSync } from 'node:fs';\nimport { dirname, join, resolve } from 'node:path';",
      },
    ],
    clauses: ['TLS-01 (e)'],
  },
  {
    name: 'a directory lists everything below it, not only its direct children',
    file: 'tools/read-tool.ts',
    find: 'await readdir(path, { withFileTypes: true })',
    replace: 'await readdir(path, { withFileTypes: true, recursive: true })',
    clauses: ['TLS-02 (a)'],
  },
  {
    name: 'reading a subdirectory lists the children of the working directory',
    file: 'tools/read-tool.ts',
    find: '        const page = await directoryPage(path, offset,',
    replace: '        const page = await directoryPage(String(location), offset,',
    clauses: ['TLS-02 (a)'],
  },
  // TLS-05 (d): saved approvals are durable, per project, per command.
  {
    name: 'approvals saved for a project are kept in process memory only',
    kind: 'state held only in memory',
    file: 'agents/saved-approvals.ts',
    find: "    this.log.append(request.sessionId, [\n      { type: 'permission.saved', tool: request.tool, pattern: request.pattern ?? '*' },\n    ]);",
    replace: "    this.remembered.add(`${request.tool}\\n${request.pattern ?? '*'}`);",
    also: [
      {
        file: 'agents/saved-approvals.ts',
        find: '    return this.saved.get(projectRoot, tool, pattern) !== undefined;',
        replace:
          '    return this.remembered.has(`${tool}\\n${pattern}`) || this.saved.get(projectRoot, tool, pattern) !== undefined;',
      },
      {
        file: 'agents/saved-approvals.ts',
        find: '  private readonly saved;\n',
        replace: '  private readonly saved;\n  private readonly remembered = new Set<string>();\n',
      },
    ],
    clauses: ['TLS-05 (d)'],
  },
  {
    name: "an approval saved for a project is looked up by the session's location",
    kind: 'identity in the wrong scope',
    file: 'runner/tool-authorization.ts',
    find: '!this.deps.savedApprovals.covers(this.session.projectRoot, call.name, pattern)',
    replace: '!this.deps.savedApprovals.covers(this.session.location, call.name, pattern)',
    clauses: ['TLS-05 (d)'],
  },
  {
    name: 'an approval saved for a project covers every command of the shell',
    kind: 'partial comparison',
    file: 'agents/saved-approvals.ts',
    find: "'SELECT 1 AS found FROM saved_approvals WHERE project_root = ? AND tool = ? AND pattern = ?'",
    replace: "'SELECT 1 AS found FROM saved_approvals WHERE project_root = ? AND tool = ? AND (pattern = ? OR 1)'",
    clauses: ['TLS-05 (d)'],
  },
  {
    name: 'an approval saved for a project covers every project',
    file: 'agents/saved-approvals.ts',
    find: "'SELECT 1 AS found FROM saved_approvals WHERE project_root = ? AND tool = ? AND pattern = ?'",
    replace: "'SELECT 1 AS found FROM saved_approvals WHERE (project_root = ? OR 1) AND tool = ? AND pattern = ?'",
    clauses: ['TLS-05 (d)'],
  },
  {
    name: "the host overlay takes the place of the caller's environment",
    file: 'pty/pty-environment.ts',
    find: '{ ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL }',
    replace: '{ ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL }',
    clauses: ['PTY-01 (a)'],
  },
  {
    // The overlay is taken as the list of variables a PTY may carry.
    name: 'caller values are kept only where the host overlay names the variable',
    file: 'pty/pty-environment.ts',
    find: '  return { cwd, env: { ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL } };',
    replace:
      '  const observed = overlay.observe(request.location, cwd);\n  const kept = Object.fromEntries(Object.entries(request.env).filter(([name]) => name in observed));\n  return { cwd, env: { ...kept, ...observed, ...FORCED_TERMINAL } };',
    clauses: ['PTY-01 (a)'],
  },
  {
    // As PATH is: both values, the caller's first.
    name: 'a variable both the caller and the overlay set joins the two values, as a path list',
    file: 'pty/pty-environment.ts',
    find: '  return { cwd, env: { ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL } };',
    replace:
      '  const observed = overlay.observe(request.location, cwd);\n  const joined = Object.fromEntries(Object.entries(observed).map(([name, value]) => [name, name in request.env ? `${request.env[name]}:${value}` : value]));\n  return { cwd, env: { ...request.env, ...joined, ...FORCED_TERMINAL } };',
    clauses: ['PTY-01 (b)'],
  },
  {
    name: 'the terminal variables override the caller but not the host overlay',
    kind: 'configuration precedence',
    needs: 'pty',
    file: 'pty/pty-environment.ts',
    find: '{ ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL }',
    replace: '{ ...request.env, ...FORCED_TERMINAL, ...overlay.observe(request.location, cwd) }',
    clauses: ['PTY-01 (c)'],
  },
  {
    name: "the overlay is observed for the PTY's working directory in place of the request's location",
    kind: 'identity in the wrong scope',
    needs: 'pty',
    file: 'pty/pty-environment.ts',
    find: 'overlay.observe(request.location, cwd)',
    replace: 'overlay.observe(cwd, cwd)',
    clauses: ['PTY-02 (a)'],
  },
  {
    name: 'a standalone server applies the host overlay',
    file: 'adapter/commands/host-commands.ts',
    find: "c.server === 'standalone' ? standaloneOverlay : ptyOverlay,",
    replace: 'ptyOverlay,',
    clauses: ['PTY-02 (c)'],
  },
  {
    name: "the overlay is observed for the server's own directory instead of the request's location",
    file: 'pty/pty-environment.ts',
    find: 'overlay.observe(request.location, cwd)',
    replace: 'overlay.observe(process.cwd(), cwd)',
    clauses: ['PTY-02 (a)'],
  },
  {
    // The overlay observed for a location is kept, whichever server asks next.
    name: 'the overlay observed for a location is cached and applied by a standalone server too',
    kind: 'stale cache',
    needs: 'pty',
    file: 'pty/pty-environment.ts',
    find: '  return { cwd, env: { ...request.env, ...overlay.observe(request.location, cwd), ...FORCED_TERMINAL } };',
    replace:
      '  const observed = overlay === standaloneOverlay ? (observedByLocation.get(request.location) ?? {}) : overlay.observe(request.location, cwd);\n  observedByLocation.set(request.location, observed);\n  return { cwd, env: { ...request.env, ...observed, ...FORCED_TERMINAL } };',
    also: [
      {
        file: 'pty/pty-environment.ts',
        find: 'export const standaloneOverlay: PtyEnvironmentOverlay = { observe: () => ({}) };',
        replace:
          'export const standaloneOverlay: PtyEnvironmentOverlay = { observe: () => ({}) };\nconst observedByLocation = new Map<string, Environment>();',
      },
    ],
    clauses: ['PTY-02 (c)'],
  },
  {
    name: "an agent's allow rule for a tool that asks by default still asks the user",
    file: 'runner/tool-authorization.ts',
    find: "    if (permission === 'ask' && !this.deps.savedApprovals.covers(this.session.projectRoot, call.name, pattern)) {",
    replace:
      "    if ((permission === 'ask' || tools.unruled(call.name) === 'ask') && !this.deps.savedApprovals.covers(this.session.projectRoot, call.name, pattern)) {",
    clauses: ['TLS-05 (a)'],
  },
  {
    name: 'any structured working directory asks for the external directory, inside the location too',
    file: 'tools/bash-tool.ts',
    find: "    if (outside(location, cwd) && !(await authorize('external_directory'))) {",
    replace: "    if (input.workdir !== undefined && !(await authorize('external_directory'))) {",
    clauses: ['TLS-05 (f)'],
  },
  {
    name: 'a command naming absolute paths outside the location is refused',
    file: 'tools/bash-tool.ts',
    find: '    const output = await run(command, cwd, signal);',
    replace:
      "    if (absolutePathsOutside(location, command).length > 0) throw new Error('the command names paths outside the working directory');\n    const output = await run(command, cwd, signal);",
    clauses: ['TLS-05 (h)'],
  },
  {
    name: 'a listing is paged by a zero-based offset',
    kind: 'edge value',
    file: 'tools/read-tool.ts',
    find: '  const entries = children.slice(offset - 1, offset - 1 + limit);',
    replace: '  const entries = children.slice(offset, offset + limit);',
    clauses: ['TLS-02 (c)'],
  },
  {
    name: 'the last page of a listing still names a next page',
    file: 'tools/read-tool.ts',
    find: '  const next = offset - 1 + entries.length < children.length ? offset + entries.length : null;',
    replace: '  const next = offset + entries.length;',
    clauses: ['TLS-02 (d)'],
  },
  {
    // The offset counts pages of `limit` entries, not entries.
    name: 'a listing is paged by page number instead of by entry',
    file: 'tools/read-tool.ts',
    find: '  const entries = children.slice(offset - 1, offset - 1 + limit);\n  const next = offset - 1 + entries.length < children.length ? offset + entries.length : null;',
    replace:
      '  const entries = children.slice((offset - 1) * limit, offset * limit);\n  const next = offset * limit < children.length ? offset + 1 : null;',
    clauses: ['TLS-02 (c)', 'TLS-02 (d)'],
  },
  {
    name: 'each page of a listing gives the zero-based index of the next entry as its next offset',
    kind: 'edge value',
    file: 'tools/read-tool.ts',
    find: '  const next = offset - 1 + entries.length < children.length ? offset + entries.length : null;',
    replace: '  const next = offset - 1 + entries.length < children.length ? offset - 1 + entries.length : null;',
    clauses: ['TLS-02 (d)'],
  },
  {
    // The file is read as text first and that text encoded: bytes that are not UTF-8 are lost.
    name: 'a binary file comes back as the base64 of its bytes decoded as UTF-8',
    kind: 'multibyte data',
    file: 'tools/read-tool.ts',
    find: "        return {\n          text: bytes.toString('base64'),",
    replace: "        return {\n          text: Buffer.from(bytes.toString('utf8'), 'utf8').toString('base64'),",
    also: [
      {
        file: 'tools/read-tool.ts',
        find: "          structured: { type: 'file', encoding: 'base64', content: bytes.toString('base64') },",
        replace:
          "          structured: { type: 'file', encoding: 'base64', content: Buffer.from(bytes.toString('utf8'), 'utf8').toString('base64') },",
      },
    ],
    clauses: ['TLS-02 (f)'],
  },
  {
    name: 'a text file is decoded as Latin-1',
    kind: 'multibyte data',
    file: 'tools/read-tool.ts',
    find: "      const page = linePage(bytes.toString('utf8'), offset,",
    replace: "      const page = linePage(bytes.toString('latin1'), offset,",
    clauses: ['TLS-02 (g)'],
  },
  {
    name: 'apply_patch leaves a deleted file in place',
    file: 'tools/apply-patch-tool.ts',
    find: '      await rm(operation.target);',
    replace: '      await readFile(operation.target);',
    clauses: ['TLS-03 (a)'],
  },
  {
    // Each hunk is parsed as its operation commits, so a malformed later hunk stops the patch
    // after the earlier operations changed their files.
    name: 'apply_patch parses each file section only as it commits it',
    kind: 'atomicity',
    file: 'tools/apply-patch-tool.ts',
    find: "    const operations = parsePatch(String(input.patch ?? '')).map((operation) => resolveTarget(location, operation));",
    replace: `    const text = String(input.patch ?? '').replace(/\\r\\n/g, '\\n').replace(/\\n$/, '');
    const sections = text.split(/\\n(?=\\*\\*\\* (?:Add|Update|Delete) File: )/).slice(1);
    const lastBody = sections.length > 0 ? sections[sections.length - 1]!.replace(/\\n\\*\\*\\* End Patch$/, '') : '';
    for (const section of [...sections.slice(0, -1), lastBody]) {
      const [operation] = parsePatch(\`*** Begin Patch\\n\${section}\\n*** End Patch\`);
      const resolved = resolveTarget(location, operation!);
      await preflight(resolved);
      await commit(resolved);
    }
    const operations: Resolved[] = [];`,
    clauses: ['TLS-03 (b)'],
  },
  {
    name: 'apply_patch restores the files it deleted when a later change fails',
    kind: 'atomicity',
    file: 'tools/apply-patch-tool.ts',
    find: '    const applied: Resolved[] = [];\n    for (const [i, operation] of operations.entries()) {\n      try {\n        await commit(operation);',
    replace:
      "    const applied: Resolved[] = [];\n    const deleted = new Map<string, Buffer>();\n    for (const [i, operation] of operations.entries()) {\n      try {\n        if (operation.op === 'delete') deleted.set(operation.target, await readFile(operation.target));\n        await commit(operation);",
    also: [
      {
        file: 'tools/apply-patch-tool.ts',
        find: '      } catch (error) {\n        const report = {',
        replace:
          '      } catch (error) {\n        for (const [target, content] of deleted) await writeFile(target, content);\n        const report = {',
      },
    ],
    clauses: ['TLS-03 (d)', 'TLS-04 (e)'],
  },
  {
    name: 'apply_patch goes on with the operations after the one that failed',
    file: 'tools/apply-patch-tool.ts',
    find: '      } catch (error) {\n        const report = {',
    replace:
      '      } catch (error) {\n        for (const later of operations.slice(i + 1)) await commit(later).catch(() => undefined);\n        const report = {',
    clauses: ['TLS-03 (e)'],
  },
  {
    // A lenient parser: it keeps the operations it could read and stops at the first it cannot.
    name: 'apply_patch applies the file sections before a malformed one',
    file: 'tools/patch.ts',
    find: '    if (!header) throw new PatchInvalid(i + 1, `expected a file header, found "${lines[i]}"`);',
    replace: '    if (!header) break;',
    also: [
      {
        file: 'tools/patch.ts',
        find: "      operations.push({ op: 'update', path, chunks: parseChunks(body, at) });",
        replace:
          "      try {\n        operations.push({ op: 'update', path, chunks: parseChunks(body, at) });\n      } catch {\n        break;\n      }",
      },
    ],
    clauses: ['TLS-03 (b)'],
  },
  {
    name: 'apply_patch checks every target before the first change but the last',
    kind: 'edge value',
    file: 'tools/apply-patch-tool.ts',
    find: '    for (const operation of operations) await preflight(operation);',
    replace: '    for (const operation of operations.slice(0, -1)) await preflight(operation);',
    clauses: ['TLS-03 (c)'],
  },
  {
    name: 'apply_patch commits all its operations at once',
    kind: 'ordering in time',
    file: 'tools/apply-patch-tool.ts',
    find: '    const applied: Resolved[] = [];\n    for (const [i, operation] of operations.entries()) {\n      try {\n        await commit(operation);',
    replace:
      '    const applied: Resolved[] = [];\n    const commits = operations.map((operation) => commit(operation).then(() => undefined, (error: unknown) => error));\n    for (const [i, operation] of operations.entries()) {\n      try {\n        const failed = await commits[i];\n        if (failed) throw failed;',
    clauses: ['TLS-03 (e)'],
  },
  {
    name: 'a patch refused outside the location still applies its operations inside it',
    file: 'tools/apply-patch-tool.ts',
    find: "    if (external.length > 0 && !(await authorize('external_directory'))) {\n",
    replace:
      "    if (external.length > 0 && !(await authorize('external_directory'))) {\n      for (const inside of operations.filter((o) => !o.external)) await commit(inside).catch(() => undefined);\n",
    clauses: ['TLS-04 (b)'],
  },
  {
    // Asked once, when the first external operation comes to be committed.
    name: 'apply_patch asks for the external directory when it comes to the first external change',
    kind: 'ordering in time',
    file: 'tools/apply-patch-tool.ts',
    find: "    if (external.length > 0 && !(await authorize('external_directory'))) {",
    replace: '    let approved: boolean | undefined;\n    if (external.length < 0) {',
    also: [
      {
        file: 'tools/apply-patch-tool.ts',
        find: '      try {\n        await commit(operation);',
        replace:
          "      if (operation.external && !(approved ??= await authorize('external_directory')))\n        throw new Error(`editing outside the working directory was not approved: ${external.join(', ')}`);\n      try {\n        await commit(operation);",
      },
    ],
    clauses: ['TLS-04 (a)', 'TLS-04 (b)'],
  },
  {
    // The agent's rule is looked at once the call has run, to decide what the model is told.
    name: 'a call the agent may not make runs before it is refused',
    file: 'runner/tool-authorization.ts',
    find: "    if (permission === 'deny') return { status: 'error', output: `Agent ${this.agent.name} may not use ${call.name}` };",
    replace: `    if (permission === 'deny') {
      const { location } = this.session;
      await tools.execute(call.name, call.input, { location, signal: this.signal, agent: this.agent, authorize: async () => false });
      return { status: 'error', output: \`Agent \${this.agent.name} may not use \${call.name}\` };
    }`,
    clauses: ['TLS-05 (b)'],
  },
  {
    // The tool's own default wins over the agent's rule for it.
    name: "a tool that asks by default asks whatever the agent's rule for it says",
    kind: 'configuration precedence',
    file: 'runner/tool-authorization.ts',
    find: '    const permission = agents.toolPermission(this.agent, call.name, tools.unruled(call.name));',
    replace:
      "    const permission = tools.unruled(call.name) === 'ask' ? 'ask' : agents.toolPermission(this.agent, call.name, tools.unruled(call.name));",
    clauses: ['TLS-05 (a)'],
  },
  {
    // The command starts while the user is asked; a refusal only discards its result.
    name: 'a call that asks starts running while the user is asked',
    kind: 'ordering in time',
    file: 'runner/tool-authorization.ts',
    find: '      const approved = await permissions.ask(',
    replace:
      '      const started = tools.execute(call.name, call.input, { location: this.session.location, signal: this.signal, agent: this.agent, authorize: async () => true });\n      started.catch(() => undefined);\n      const approved = await permissions.ask(',
    also: [
      {
        file: 'runner/tool-authorization.ts',
        find: "      if (!approved) return { status: 'error', output: 'The user declined this tool call' };",
        replace:
          "      if (!approved) {\n        return { status: 'error', output: 'The user declined this tool call' };\n      }\n      return started;",
      },
    ],
    clauses: ['TLS-05 (c)'],
  },
  {
    // The command runs, but its note about absolute paths makes the call fail.
    name: 'a command naming absolute paths outside the location runs but settles as a failure',
    file: 'tools/bash-tool.ts',
    find: "    return named.length === 0\n      ? output\n      : `${output}\\n(note: the command names paths outside the working directory: ${named.join(', ')})`;",
    replace:
      "    if (named.length > 0) throw new Error(`${output}\\n(the command names paths outside the working directory: ${named.join(', ')})`);\n    return output;",
    clauses: ['TLS-05 (h)'],
  },
];
