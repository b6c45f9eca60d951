import type { Mutant } from './mutant.js';

export const instructions: Mutant[] = [
  {
    name: 'a project file between the location and the root is left out',
    file: 'context/sources/instructions.ts',
    find: '...(await projectCandidates(scope)).map(',
    replace: '...(await projectCandidates(scope)).slice(0, 1).map(',
    clauses: ['INS-01 (b)'],
  },
  {
    name: 'changed instructions do not supersede the old set',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace: 'update: (_previous, files) => render(files),',
    clauses: ['INS-02 (c)', 'INS-03 (b)'],
  },
  {
    name: 'an update leaves out the first remaining file',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files.slice(1))}`,',
    clauses: ['INS-03 (a)'],
  },
  {
    name: 'removed instructions are never revoked',
    file: 'context/sources/instructions.ts',
    find: '    removal: () => REVOCATION,\n',
    replace: '',
    clauses: ['INS-04 (a)'],
  },
  {
    name: 'OPENCODE_DISABLE_PROJECT_CONFIG is ignored',
    file: 'context/location-contexts.ts',
    find: 'projectConfigDisabled: () => Boolean(hostEnv().OPENCODE_DISABLE_PROJECT_CONFIG),',
    replace: 'projectConfigDisabled: () => false,',
    clauses: ['INS-05 (a)'],
  },
  {
    name: "OPENCODE_DISABLE_PROJECT_CONFIG still reads the location's own file",
    file: 'context/sources/instructions.ts',
    find: '  if (scope.projectConfigDisabled()) return candidates;',
    replace:
      '  if (scope.projectConfigDisabled())\n    return [...candidates, ...(await projectCandidates(scope)).slice(0, 1).map((path) => ({ path, root: scope.projectRoot }))];',
    clauses: ['INS-05 (a)'],
  },
  {
    name: 'links out of the project root are followed',
    file: 'context/sources/instructions.ts',
    find: 'if (root !== undefined && !within(await realpath(root), real)) return Absent;',
    replace: '',
    clauses: ['INS-06 (b)'],
  },
  {
    name: 'discovery walks above the project root',
    file: 'context/sources/instructions.ts',
    find: '    if (dir === root) return dirs;',
    replace: '    if (dir === dirname(root)) return dirs;',
    also: [
      {
        file: 'context/sources/instructions.ts',
        find: '.map((path) => ({ path, root: scope.projectRoot }))',
        replace: '.map((path) => ({ path, root: dirname(scope.projectRoot) }))',
      },
    ],
    clauses: ['INS-06 (a)'],
  },
  {
    name: 'an unreadable file counts as removed',
    file: 'context/sources/instructions.ts',
    find: `  } catch {
    return Unavailable;
  }`,
    replace: `  } catch {
    return Absent;
  }`,
    clauses: ['INS-07 (a)'],
  },
  {
    name: 'project files take the place of the global file',
    kind: 'configuration precedence',
    file: 'context/sources/instructions.ts',
    find: '  return [...candidates, ...(await projectCandidates(scope)).map((path) => ({ path, root: scope.projectRoot }))];',
    replace:
      '  const project = (await projectCandidates(scope)).map((path) => ({ path, root: scope.projectRoot }));\n  return project.length > 0 ? project : candidates;',
    clauses: ['INS-01 (d)'],
  },
  {
    name: 'an update restates only the files that changed',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace:
      'update: (previous, files) =>\n      `${SUPERSESSION}\\n\\n${render(files.filter((f) => !previous.some((p) => p.path === f.path && p.content === f.content)))}`,',
    clauses: ['INS-02 (a)'],
  },
  {
    name: 'the revocation restates the revoked instructions',
    file: 'context/sources/instructions.ts',
    find: '    removal: () => REVOCATION,\n',
    replace: '    removal: (files) => `${REVOCATION}\\n\\n${render(files)}`,\n',
    clauses: ['INS-04 (b)'],
  },
  {
    name: 'no file left is an empty set, not a removal',
    kind: 'edge value',
    file: 'context/sources/instructions.ts',
    find: '  return files.length > 0 ? files : Absent;',
    replace: '  return files;',
    clauses: ['INS-04 (a)'],
  },
  {
    name: 'the revocation quotes the first line of each removed file',
    file: 'context/sources/instructions.ts',
    find: '    removal: () => REVOCATION,\n',
    replace:
      "    removal: (files) => [REVOCATION, ...files.map((f) => `${f.path}: ${f.content.split('\\n')[0]}`)].join('\\n'),\n",
    clauses: ['INS-04 (b)'],
  },
  {
    name: 'OPENCODE_DISABLE_PROJECT_CONFIG turns the global file off too',
    file: 'context/sources/instructions.ts',
    find: '  if (scope.projectConfigDisabled()) return candidates;',
    replace: '  if (scope.projectConfigDisabled()) return [];',
    clauses: ['INS-05 (b)'],
  },
  {
    name: 'with OPENCODE_DISABLE_PROJECT_CONFIG the global file is bounded by the project root',
    file: 'context/sources/instructions.ts',
    find: '  if (scope.projectConfigDisabled()) return candidates;',
    replace: '  if (scope.projectConfigDisabled()) return candidates.map((c) => ({ ...c, root: scope.projectRoot }));',
    clauses: ['INS-05 (b)'],
  },
  {
    name: 'an unreadable file is skipped and the others admitted',
    file: 'context/sources/instructions.ts',
    find: '    if (found === Unavailable) return Unavailable;',
    replace: '    if (found === Unavailable) continue;',
    clauses: ['INS-07 (b)'],
  },
  {
    // Instruction files are read once per process: an edit made since is not seen.
    name: 'instruction files are served from what the process read first',
    kind: 'stale cache',
    file: 'context/sources/instructions.ts',
    find: "    return { path, content: await readFile(real, 'utf8') };",
    replace:
      "    const content = readFiles.get(real) ?? (await readFile(real, 'utf8'));\n    readFiles.set(real, content);\n    return { path, content };",
    also: [
      {
        file: 'context/sources/instructions.ts',
        find: 'export const SUPERSESSION =',
        replace: 'const readFiles = new Map<string, string>();\nexport const SUPERSESSION =',
      },
    ],
    // Not observing the files at the boundary is INS-01's to judge, whatever the change.
    clauses: ['INS-01 (e)'],
  },
  {
    // Discovery is cached per location: a file that appears later is never looked for.
    name: 'instruction files are discovered once per location, and only the files found then are read again',
    kind: 'stale cache',
    file: 'context/sources/instructions.ts',
    find: 'async function loadInstructions(scope: InstructionScope): Promise<Observation<InstructionFile[]>> {',
    replace: `const discovered = new Map<string, InstructionCandidate[]>();

async function loadInstructions(scope: InstructionScope): Promise<Observation<InstructionFile[]>> {`,
    also: [
      {
        file: 'context/sources/instructions.ts',
        find: `const files: InstructionFile[] = [];
  for (const candidate of await instructionCandidates(scope)) {`,
        replace: `const files: InstructionFile[] = [];
  const cacheKey = \`\${scope.globalDir}\\0\${scope.projectRoot}\\0\${scope.location}\`;
  let present = discovered.get(cacheKey);
  if (!present) {
    present = [];
    for (const candidate of await instructionCandidates(scope)) {
      if (await lstat(candidate.path).then(() => true, () => false)) present.push(candidate);
    }
    discovered.set(cacheKey, present);
  }
  for (const candidate of present) {`,
      },
    ],
    // The new file never reaches the model: not observing the files is INS-01's to judge.
    clauses: ['INS-01 (e)'],
  },
  {
    name: 'an instruction file holding non-ASCII bytes is taken for a binary file and skipped',
    kind: 'multibyte data',
    file: 'context/sources/instructions.ts',
    find: "return { path, content: await readFile(real, 'utf8') };",
    replace: `const bytes = await readFile(real);
    if (bytes.some((b) => b > 0x7e || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d))) return Absent;
    return { path, content: bytes.toString('utf8') };`,
    clauses: ['INS-01 (a)'],
  },
  {
    name: 'the instructions snapshot keeps the paths only, so an edited file is no change',
    kind: 'partial comparison',
    file: 'context/sources/instructions.ts',
    find: 'encode: (files) => files.map((f) => ({ path: f.path, content: f.content })),',
    replace: 'encode: (files) => files.map((f) => ({ path: f.path })),',
    // The edit never reaches the model: not observing the files is INS-01's to judge.
    clauses: ['INS-01 (e)'],
  },
  {
    name: 'a linked instruction file is contained in the project root by string prefix',
    kind: 'containment by prefix',
    file: 'context/sources/instructions.ts',
    find: 'if (root !== undefined && !within(await realpath(root), real)) return Absent;',
    replace: 'if (root !== undefined && !real.startsWith(await realpath(root))) return Absent;',
    clauses: ['INS-06 (b)'],
  },
  // INS-01 (f): the files are observed at the boundaries inside a drain too, after tool results.
  {
    name: 'context changes are admitted only at a boundary that promotes new input',
    kind: 'ordering in time',
    file: 'runner/drain.ts',
    find: '    const epoch = await context.admitChanges();',
    replace: '    const epoch = promoted > 0 ? await context.admitChanges() : deps.epochs.find(sessionId)!;',
    clauses: ['INS-01 (f)'],
  },
  {
    name: "the sources are loaded once per drain, and the drain's later boundaries reuse what they held then",
    kind: 'stale cache',
    file: 'runner/drain.ts',
    find: '      context = await ContextBoundary.open(deps, session);',
    replace: `      context = await ContextBoundary.open(
        {
          ...deps,
          contextSources: async (s) =>
            (await deps.contextSources(s)).map((source) => ({
              ...source,
              load: () => {
                if (!loadedInDrain.has(source.key)) loadedInDrain.set(source.key, source.load());
                return loadedInDrain.get(source.key) as ReturnType<typeof source.load>;
              },
            })),
        },
        session,
      );`,
    also: [
      {
        file: 'runner/drain.ts',
        find: '  let turns = 0;\n',
        replace: '  let turns = 0;\n  const loadedInDrain = new Map<string, unknown>();\n',
      },
    ],
    clauses: ['INS-01 (f)'],
  },
  // INS-07 (c): a file that vanishes while it is read is unavailable, as one that cannot be read.
  {
    // A file gone by the time it is read reads as empty, as a missing file's text often defaults.
    name: 'a file that vanishes while it is read reads as empty',
    kind: 'edge value',
    needs: 'fault-injection',
    file: 'context/sources/instructions.ts',
    find: `    const real = await realpath(path);
    if (root !== undefined && !within(await realpath(root), real)) return Absent;
    return { path, content: await readFile(real, 'utf8') };`,
    replace: `    const real = await realpath(path).catch(() => path);
    if (root !== undefined && !within(await realpath(root), real)) return Absent;
    const content = await readFile(real, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    return { path, content };`,
    clauses: ['INS-07 (c)'],
  },
  {
    // After a failed read the runtime looks again whether the file is there, finds it gone by then,
    // and takes it as removed: what discovery saw before the read no longer counts.
    name: 'a file that vanishes while it is read is taken as removed, as it is gone after the read',
    kind: 'ordering in time',
    needs: 'fault-injection',
    file: 'context/sources/instructions.ts',
    find: `  } catch {
    return Unavailable;
  } finally {`,
    replace: `  } catch {
    return (await lstat(path).then(() => true, () => false)) ? Unavailable : Absent;
  } finally {`,
    clauses: ['INS-07 (c)'],
  },
  {
    name: 'an unreadable instruction file does not hold the first epoch back',
    file: 'context/system-context.ts',
    find: "  const unavailable = observed.filter((o) => o.observation === Unavailable).map((o) => o.source.key);\n  if (unavailable.length > 0) return { kind: 'blocked', unavailable };",
    replace:
      "  const unavailable = observed.filter((o) => o.observation === Unavailable && !o.source.key.startsWith('core/instructions')).map((o) => o.source.key);\n  if (unavailable.length > 0) return { kind: 'blocked', unavailable };",
    clauses: ['INS-07 (a)'],
  },
  {
    name: 'unreadable instructions are announced as unavailable',
    file: 'context/system-context.ts',
    find: '    if (observation === Unavailable) {\n      if (stored) next[source.key] = stored;',
    replace:
      "    if (observation === Unavailable) {\n      if (stored) next[source.key] = stored;\n      if (stored && source.key.startsWith('core/instructions')) parts.push({ key: source.key, text: 'The instructions cannot be read at the moment.' });",
    clauses: ['INS-07 (b)'],
  },
  {
    name: 'the restated instructions are followed by the set they supersede',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace:
      'update: (previous, files) => `${SUPERSESSION}\\n\\n${render(files)}\\n\\nPreviously:\\n${render(previous)}`,',
    clauses: ['INS-02 (d)'],
  },
  {
    name: 'a removed instruction file stays in the restated set',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace:
      'update: (previous, files) => `${SUPERSESSION}\\n\\n${render([...files, ...previous.filter((old) => !files.some((file) => file.path === old.path))])}`,',
    clauses: ['INS-03 (c)'],
  },
  {
    name: 'a smaller set of files is told as a revocation',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace:
      'update: (previous, files) => (files.length < previous.length ? REVOCATION : `${SUPERSESSION}\\n\\n${render(files)}`),',
    clauses: ['INS-03 (a)'],
  },
  {
    name: 'a restated set keeps the files removed since',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace:
      'update: (previous, files) => `${SUPERSESSION}\\n\\n${render([...files, ...previous.filter((p) => !files.some((f) => f.path === p.path))])}`,',
    clauses: ['INS-03 (c)'],
  },
  {
    name: 'each instruction file changed at a boundary is told in a message of its own',
    kind: 'second occurrence',
    file: 'runner/context-boundary.ts',
    find: "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);",
    replace:
      "      const pieces = text.split(/\\n\\n(?=Instructions from: )/);\n      this.deps.log.append(this.session.id, pieces.map((piece, i) => ({ type: 'context.updated' as const, messageId: i === 0 ? messageId : this.deps.ids.next('msg'), text: piece, keys, snapshot })));",
    clauses: ['INS-01 (c)'],
  },
  {
    name: 'the global instructions are looked for under a lower-case name',
    file: 'context/sources/instructions.ts',
    find: '  const candidates: InstructionCandidate[] = [{ path: join(scope.globalDir, INSTRUCTIONS_FILE) }];',
    replace:
      '  const candidates: InstructionCandidate[] = [{ path: join(scope.globalDir, INSTRUCTIONS_FILE.toLowerCase()) }];',
    clauses: ['INS-01 (a)'],
  },
  {
    name: "discovery starts at the location's parent",
    kind: 'edge value',
    file: 'context/sources/instructions.ts',
    find: '  for (let dir = location; ; dir = dirname(dir)) {',
    replace: '  for (let dir = location === root ? location : dirname(location); ; dir = dirname(dir)) {',
    clauses: ['INS-01 (b)'],
  },
  {
    // The restated set follows when the files changed, not where they stand.
    name: 'a restated set lists the changed files first',
    kind: 'ordering in time',
    file: 'context/sources/instructions.ts',
    find: '    update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace:
      '    update: (previous, files) => {\n      const changed = files.filter((f) => !previous.some((p) => p.path === f.path && p.content === f.content));\n      return `${SUPERSESSION}\\n\\n${render([...changed, ...files.filter((f) => !changed.includes(f))])}`;\n    },',
    clauses: ['INS-02 (b)'],
  },
  {
    name: 'a restated set leaves out the global file',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace:
      'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files.filter((f) => !f.path.startsWith(scope.globalDir)))}`,',
    clauses: ['INS-02 (a)'],
  },
  {
    name: 'a restated file keeps the text admitted before',
    kind: 'stale cache',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace:
      'update: (previous, files) => `${SUPERSESSION}\\n\\n${render(files.map((f) => previous.find((p) => p.path === f.path) ?? f))}`,',
    clauses: ['INS-02 (d)'],
  },
];
