import type { Mutant } from './mutant.js';

export const checkpoint: Mutant[] = [
  {
    // A store that keeps the parts as one text and splits them again where a blank line stands.
    name: 'the checkpoint baseline is stored joined and split again at blank lines',
    profile: 'checkpoint',
    file: 'context/epoch-projection.ts',
    find: '      ).run(sessionId, JSON.stringify(event.parts), JSON.stringify(event.snapshot), event.provider ?? null);',
    replace:
      "      ).run(sessionId, JSON.stringify(event.parts.join('\\n\\n').split('\\n\\n')), JSON.stringify(event.snapshot), event.provider ?? null);",
    clauses: ['LEG-03 (a)'],
  },
  {
    name: 'the checkpoint baseline is rendered again from current values at every boundary',
    profile: 'checkpoint',
    file: 'runner/context-boundary.ts',
    find: 'if (epoch && !epoch.replacementPending) return new ContextBoundary(deps, session, sources, false);',
    replace:
      'if (epoch && !epoch.replacementPending) return ContextBoundary.replaced(deps, session, sources, epoch.snapshot);',
    clauses: ['LEG-03 (a)'],
  },
  {
    name: 'the checkpoint compares encoded values, not rendered text',
    profile: 'checkpoint',
    file: 'context/context-design.ts',
    find: '  if (!design.hashesSnapshot()) return source.encode(value);',
    replace: '  return source.encode(value);',
    clauses: ['LEG-01 (b)'],
  },
  {
    name: 'the checkpoint design keeps the epoch across a model switch',
    profile: 'checkpoint',
    file: 'runtime.ts',
    find: 'this.profile.endsEpochOnSwitch() && selection.model !== undefined',
    replace: 'false',
    clauses: ['LEG-02 (a)'],
  },
  {
    name: 'the checkpoint design joins its baseline into one part',
    profile: 'checkpoint',
    file: 'runner/context-boundary.ts',
    find: "  return design.keepsBaselineParts() ? texts : [texts.join('\\n\\n')];",
    replace: "  return [texts.join('\\n\\n')];",
    clauses: ['LEG-03 (b)'],
  },
  {
    name: 'plugin components follow in contribution order',
    profile: 'checkpoint',
    file: 'context/context-registry.ts',
    find: '      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));',
    replace: ';',
    clauses: ['LEG-04 (c)'],
  },
  {
    name: 'system messages forget which components they announce',
    profile: 'checkpoint',
    file: 'history/history-projection.ts',
    find: '{ text: event.text, keys: event.keys }',
    replace: '{ text: event.text }',
    clauses: ['LEG-05 (a)'],
  },
  {
    name: 'the checkpoint design restates all instruction files together',
    profile: 'checkpoint',
    file: 'context/location-contexts.ts',
    find: 'this.host.design.separatesInstructionFiles() ? instructionFileSources(scope) : [instructionsSource(scope)],',
    replace: '[instructionsSource(scope)],',
    clauses: ['LEG-07 (b)'],
  },
  {
    name: 'instructions found beside a read file are ignored',
    profile: 'checkpoint',
    file: 'context/nested-instructions.ts',
    find: "    if (found.length > 0) this.log.append(sessionId, [{ type: 'instructions.discovered', paths: found.reverse() }]);",
    replace: '',
    clauses: ['LEG-06 (b)'],
  },
  {
    name: 'the checkpoint keeps a shortened hash',
    profile: 'checkpoint',
    file: 'context/context-design.ts',
    find: "return createHash('sha256').update(source.update(value, value)).digest('hex');",
    replace: "return createHash('sha256').update(source.update(value, value)).digest('hex').slice(0, 12);",
    clauses: ['LEG-01 (a)'],
  },
  {
    name: 'a model switch starts a new epoch with the old baseline',
    profile: 'checkpoint',
    file: 'runner/context-boundary.ts',
    find: "      { type: 'context.replaced', parts, snapshot: replaced, provider: providerOf(deps.provider) },",
    replace:
      "      { type: 'context.replaced', parts: deps.epochs.find(session.id)?.parts ?? parts, snapshot: replaced, provider: providerOf(deps.provider) },",
    clauses: ['LEG-02 (a)'],
  },
  {
    name: 'the chat dialect joins the baseline parts into one system message',
    profile: 'checkpoint',
    file: 'provider/openai-chat.ts',
    find: "...request.baseline.map((content) => ({ role: 'system', content })),",
    replace: "...(request.baseline.length > 0 ? [{ role: 'system', content: request.baseline.join('\\n\\n') }] : []),",
    clauses: ['LEG-03 (b)'],
  },
  {
    name: 'plugin components come before the built-in ones',
    profile: 'checkpoint',
    file: 'context/context-registry.ts',
    find: '    return combine([...builtIn, ...plugin]);',
    replace: '    return combine([...plugin, ...builtIn]);',
    clauses: ['LEG-04 (a)'],
  },
  // LEG-04 (b): built-in components keep their declaration order, whichever of them changed.
  {
    // A checkpoint kept as a map sets a changed component again, which moves it to the end, and a
    // new epoch renders the components in the checkpoint's order.
    name: "a new epoch renders the built-in components in the order of the checkpoint's last changes",
    kind: 'stale cache',
    profile: 'checkpoint',
    file: 'context/system-context.ts',
    find: '    keys: parts.map((p) => p.key),\n    snapshot: next,',
    replace:
      '    keys: parts.map((p) => p.key),\n    snapshot: Object.fromEntries([\n      ...Object.entries(next).filter(([key]) => !parts.some((p) => p.key === key)),\n      ...Object.entries(next).filter(([key]) => parts.some((p) => p.key === key)),\n    ]),',
    also: [
      {
        file: 'context/system-context.ts',
        find: "  return { kind: 'replacement-ready', baseline: render(design, observed) };",
        replace:
          "  const rank = (o: Observed) => (Object.keys(snapshot).includes(o.source.key) ? Object.keys(snapshot).indexOf(o.source.key) : Number.MAX_SAFE_INTEGER);\n  return { kind: 'replacement-ready', baseline: render(design, [...observed].sort((a, b) => rank(a) - rank(b))) };",
      },
    ],
    clauses: ['LEG-04 (b)'],
  },
  {
    // Instruction files listed as a directory walk finds them by modification time, oldest first.
    name: 'instruction file components follow in the order their files were last written',
    kind: 'ordering in time',
    profile: 'checkpoint',
    file: 'context/sources/instruction-files.ts',
    find: '  return present.map((candidate) => ({',
    replace:
      '  const written = new Map<string, number>();\n  for (const candidate of present) written.set(candidate.path, (await lstat(candidate.path)).mtimeMs);\n  present.sort((a, b) => written.get(a.path)! - written.get(b.path)!);\n  return present.map((candidate) => ({',
    clauses: ['LEG-04 (b)'],
  },
  {
    name: 'plugin components are ordered by the namespace of their key only',
    kind: 'partial comparison',
    needs: 'kit-sources',
    profile: 'checkpoint',
    file: 'context/context-registry.ts',
    find: '      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));',
    replace:
      "      .sort((a, b) => {\n        const [x, y] = [a.key.split('/')[0]!, b.key.split('/')[0]!];\n        return x < y ? -1 : x > y ? 1 : 0;\n      });",
    clauses: ['LEG-04 (c)'],
  },
  {
    name: 'a system message keeps only the first key it announces',
    profile: 'checkpoint',
    file: 'history/history-projection.ts',
    find: '{ text: event.text, keys: event.keys }',
    replace: '{ text: event.text, keys: event.keys.slice(0, 1) }',
    clauses: ['LEG-05 (a)'],
  },
  {
    name: 'instructions found by reading are forgotten at a compaction',
    profile: 'checkpoint',
    file: 'context/nested-instructions-projection.ts',
    find: "    case 'session.moved':\n      db.prepare('DELETE FROM discovered_instructions WHERE session_id = ?').run(sessionId);",
    replace:
      "    case 'session.moved':\n    case 'compaction.ended':\n      db.prepare('DELETE FROM discovered_instructions WHERE session_id = ?').run(sessionId);",
    clauses: ['LEG-06 (e)'],
  },
  {
    name: 'the revocation of a removed instruction file does not name the file',
    profile: 'checkpoint',
    file: 'context/sources/instruction-files.ts',
    find: "removal: (file) => FILE_REVOCATION.replace('{path}', file.path),",
    replace: "removal: () => 'Instructions from a removed file no longer apply.',",
    clauses: ['LEG-07 (d)'],
  },
  {
    // The files found by reading are remembered by the process, not by the session.
    name: 'instructions found by reading are remembered only in process memory',
    kind: 'state held only in memory',
    profile: 'checkpoint',
    file: 'context/nested-instructions.ts',
    find: '  private readonly list;',
    replace: '  private readonly list;\n  private readonly found = new Map<string, string[]>();',
    also: [
      {
        file: 'context/nested-instructions.ts',
        find: '    return this.list.all(sessionId).map((row) => row.path);',
        replace: '    return this.found.get(sessionId) ?? [];',
      },
      {
        file: 'context/nested-instructions.ts',
        find: "    if (found.length > 0) this.log.append(sessionId, [{ type: 'instructions.discovered', paths: found.reverse() }]);",
        replace:
          "    if (found.length > 0) {\n      this.log.append(sessionId, [{ type: 'instructions.discovered', paths: found.reverse() }]);\n      this.found.set(sessionId, [...known, ...found]);\n    }",
      },
    ],
    clauses: ['LEG-06 (d)'],
  },
  // LEG-01 (c): equal rendered text is no change.
  {
    name: 'the checkpoint announces every component again at each boundary',
    profile: 'checkpoint',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: 'if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace: 'if (design.hashesSnapshot() || canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    clauses: ['LEG-01 (c)'],
  },
  {
    name: 'the checkpoint keeps the rendered update text itself, not its hash',
    kind: 'partial comparison',
    needs: 'kit-sources',
    profile: 'checkpoint',
    file: 'context/context-design.ts',
    find: "  return createHash('sha256').update(source.update(value, value)).digest('hex');",
    replace: '  return source.update(value, value);',
    clauses: ['LEG-01 (a)'],
  },
  {
    name: "the checkpoint hashes the component's encoded value, not its rendered text",
    profile: 'checkpoint',
    file: 'context/context-design.ts',
    find: "  return createHash('sha256').update(source.update(value, value)).digest('hex');",
    replace: "  return createHash('sha256').update(JSON.stringify(source.encode(value))).digest('hex');",
    clauses: ['LEG-01 (a)', 'LEG-01 (b)'],
  },
  // LEG-02 (d): in the checkpoint design a provider switch starts a new epoch.
  {
    name: 'the checkpoint design keeps its epoch across a provider switch',
    profile: 'checkpoint',
    needs: 'kit-sources',
    file: 'runner/context-boundary.ts',
    find: '    deps.profile.endsEpochOnSwitch() && epoch.provider !== undefined && epoch.provider !== providerOf(deps.provider)',
    replace: '    false',
    clauses: ['LEG-02 (d)'],
  },
  {
    // The new epoch is compared against the snapshot of the one it ends, so the first boundary restates what changed.
    name: "a switch's new epoch restates what changed since the old one in a system message",
    profile: 'checkpoint',
    file: 'runner/context-boundary.ts',
    find: "      { type: 'context.replaced', parts, snapshot: replaced, provider: providerOf(deps.provider) },\n    ]);\n    return new ContextBoundary(deps, session, sources, true);",
    replace:
      "      { type: 'context.replaced', parts, snapshot, provider: providerOf(deps.provider) },\n    ]);\n    return new ContextBoundary(deps, session, sources, false);",
    clauses: ['LEG-02 (b)'],
  },
  {
    name: 'a model switch starts the new model on the conversation since the switch',
    profile: 'checkpoint',
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
    replace: `    history: modelHistory(
      deps.history
        .messages(session.id)
        .filter(
          (m) =>
            m.seq >
            (deps.log.after(session.id, 0).findLast((e) => e.event.type === 'context.replacement-requested')?.seq ?? 0),
        ),
      deps.profile.checkpointForm(),
      deps.prunedMessage?.(),
    ),`,
    clauses: ['LEG-02 (c)'],
  },
  {
    // The new epoch is announced to the model, as some runtimes note a model change.
    name: 'a new epoch after a switch is announced in a system message',
    profile: 'checkpoint',
    file: 'runner/context-boundary.ts',
    find: "      { type: 'context.replaced', parts, snapshot: replaced, provider: providerOf(deps.provider) },\n    ]);",
    replace:
      "      { type: 'context.replaced', parts, snapshot: replaced, provider: providerOf(deps.provider) },\n      { type: 'context.updated', messageId: deps.ids.next('msg'), text: 'The system context was restated for a new epoch.', keys: [], snapshot: replaced },\n    ]);",
    clauses: ['LEG-02 (b)'],
  },
  {
    // The provider the epoch was opened for is remembered by the running process, not stored with the epoch.
    name: 'the provider of an epoch is remembered in process memory only',
    kind: 'state held only in memory',
    needs: 'kit-sources',
    profile: 'checkpoint',
    file: 'runner/context-boundary.ts',
    find: '    deps.profile.endsEpochOnSwitch() && epoch.provider !== undefined && epoch.provider !== providerOf(deps.provider)',
    replace:
      '    deps.profile.endsEpochOnSwitch() && epoch.provider !== undefined && (providersSeen.get(deps.epochs) ?? providerOf(deps.provider)) !== providerOf(deps.provider)',
    also: [
      {
        file: 'runner/context-boundary.ts',
        find: 'const providerOf = ({ dialect, baseUrl }: ProviderConfig) => `${dialect} ${baseUrl}`;',
        replace:
          'const providerOf = ({ dialect, baseUrl }: ProviderConfig) => `${dialect} ${baseUrl}`;\nconst providersSeen = new WeakMap<object, string>();',
      },
      {
        file: 'runner/context-boundary.ts',
        find: '    const epoch = deps.epochs.find(session.id);\n',
        replace:
          '    const epoch = deps.epochs.find(session.id);\n    if (!providersSeen.has(deps.epochs)) providersSeen.set(deps.epochs, providerOf(deps.provider));\n',
      },
    ],
    clauses: ['LEG-02 (d)'],
  },
  {
    // The turns another model gave are its own: they are not replayed to the model switched to.
    name: 'after a model switch the answers of the earlier model are left out of the history sent',
    kind: 'identity in the wrong scope',
    needs: 'kit-sources',
    profile: 'checkpoint',
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
    replace:
      "    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()).filter((m) => m.role !== 'assistant' || m.model === '' || m.model === (session.model ?? deps.provider.model)),",
    clauses: ['LEG-02 (c)'],
  },
  {
    // The request re-joins the components a system message announces; the history keeps the text as admitted.
    name: 'a system message goes out with its components joined by one line break, not as the history keeps it',
    profile: 'checkpoint',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace:
      "  return activeHistory(messages, form).map((m) => (m.role === 'system' ? { ...m, text: m.text.split('\\n\\n').join('\\n') } : m)).map((m) =>",
    clauses: ['LEG-05 (b)'],
  },
  {
    name: 'a system message goes out wrapped in a reminder tag the history does not keep',
    profile: 'checkpoint',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace:
      "  return activeHistory(messages, form).map((m) => (m.role === 'system' ? { ...m, text: `<system-reminder>\\n${m.text}\\n</system-reminder>` } : m)).map((m) =>",
    clauses: ['LEG-05 (b)'],
  },
  {
    name: 'every instruction file below the location is part of the instructions from the start',
    profile: 'checkpoint',
    file: 'runtime.ts',
    find: '      this.nested.paths(session.id),\n    );',
    replace: `      [
        ...new Set([
          ...(function below(dir: string): string[] {
            const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
            return fs
              .readdirSync(dir, { withFileTypes: true })
              .flatMap((entry) =>
                entry.isDirectory()
                  ? below(\`\${dir}/\${entry.name}\`)
                  : entry.name === 'AGENTS.md' && dir !== session.location
                    ? [\`\${dir}/\${entry.name}\`]
                    : [],
              );
          })(session.location),
          ...this.nested.paths(session.id),
        ]),
      ],
    );`,
    clauses: ['LEG-06 (a)'],
  },
  {
    // Found instructions are handed to the next boundary once, as an attachment would be, and not kept in force.
    name: 'instructions found by reading are given to one boundary only',
    profile: 'checkpoint',
    file: 'runtime.ts',
    find: '      this.nested.paths(session.id),\n    );',
    replace: `      this.nested.paths(session.id).filter((path) => {
        const handed = ((this as unknown as { handed?: Set<string> }).handed ??= new Set<string>());
        const key = \`\${session.id} \${path}\`;
        if (handed.has(key)) return false;
        handed.add(key);
        return true;
      }),
    );`,
    clauses: ['LEG-06 (c)'],
  },
  {
    // The found files are read once per session, when its first boundary composes the context.
    name: 'the instruction files found by reading are looked up once per session and cached',
    kind: 'stale cache',
    profile: 'checkpoint',
    file: 'runtime.ts',
    find: '      this.nested.paths(session.id),\n    );',
    replace: `      (() => {
        const cache = ((this as unknown as { nestedCache?: Map<string, string[]> }).nestedCache ??= new Map());
        if (!cache.has(session.id)) cache.set(session.id, this.nested.paths(session.id));
        return cache.get(session.id)!;
      })(),
    );`,
    clauses: ['LEG-06 (b)'],
  },
  {
    // Found instructions hold for the prompt whose reads found them; a later prompt starts without them.
    name: 'instructions found by reading hold until the next user prompt',
    profile: 'checkpoint',
    file: 'context/nested-instructions.ts',
    find: "      'SELECT path FROM discovered_instructions WHERE session_id = ? ORDER BY discovered_seq, path',",
    replace:
      '      "SELECT path FROM discovered_instructions WHERE session_id = ? AND discovered_seq > (SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ? AND role = \'user\' AND hidden = 0) ORDER BY discovered_seq, path",',
    also: [
      {
        file: 'context/nested-instructions.ts',
        find: '    return this.list.all(sessionId).map((row) => row.path);',
        replace: '    return this.list.all(sessionId, sessionId).map((row) => row.path);',
      },
    ],
    clauses: ['LEG-06 (c)'],
  },
  {
    // A fresh baseline holds the ambient context; found files join again at the boundary after it.
    name: 'a fresh baseline after a compaction leaves out the instruction files found by reading',
    profile: 'checkpoint',
    file: 'runtime.ts',
    find: '      this.nested.paths(session.id),\n    );',
    replace: '      this.epochs.find(session.id)?.replacementPending ? [] : this.nested.paths(session.id),\n    );',
    clauses: ['LEG-06 (e)'],
  },
  {
    name: 'a changed instruction file is announced by its path only, without its contents',
    profile: 'checkpoint',
    file: 'context/sources/instruction-files.ts',
    find: '      `Instructions from: ${file.path} (this replaces its previous version)\\n${file.content}`,',
    replace: '      `Instructions from: ${file.path} changed; read it again`,',
    clauses: ['LEG-07 (a)'],
  },
  {
    // The snapshot keeps each file's contents rather than a hash, and the update restates the old contents before the new.
    name: 'an update of an instruction file restates its previous version before the new one',
    profile: 'checkpoint',
    file: 'context/sources/instruction-files.ts',
    find: '    update: (_previous, file) =>\n      `Instructions from: ${file.path} (this replaces its previous version)\\n${file.content}`,',
    replace:
      '    update: (previous, file) =>\n      `Instructions from: ${file.path} (this replaces its previous version)\\n${previous.content}\\n${file.content}`,',
    also: [
      {
        file: 'context/context-design.ts',
        find: '  if (!design.hashesSnapshot()) return source.encode(value);',
        replace: '  return source.encode(value);',
      },
      {
        file: 'context/system-context.ts',
        find: '        const previous = design.hashesSnapshot() ? observation : source.decode(stored.value);',
        replace: '        const previous = source.decode(stored.value);',
      },
    ],
    clauses: ['LEG-07 (c)'],
  },
  {
    // A file is read once and its contents kept: a later change is never seen.
    name: 'an instruction file is read once and its contents cached by path',
    kind: 'stale cache',
    profile: 'checkpoint',
    file: 'context/sources/instruction-files.ts',
    find: '    load: () => readCandidate(candidate, beforeRead),',
    replace: `    load: async () => {
      const cached = readCache.get(candidate.path);
      if (cached) return cached;
      const found = await readCandidate(candidate, beforeRead);
      if (typeof found === 'object' && found !== null) readCache.set(candidate.path, found);
      return found;
    },`,
    also: [
      {
        file: 'context/sources/instruction-files.ts',
        find: "export const FILE_REVOCATION = 'Instructions from {path} no longer apply.';",
        replace:
          "export const FILE_REVOCATION = 'Instructions from {path} no longer apply.';\nconst readCache = new Map<string, InstructionFile>();",
      },
    ],
    clauses: ['LEG-07 (a)'],
  },
  {
    // A change of one instruction file restates every instruction file, each in full.
    name: 'a change of one instruction file restates all of them',
    kind: 'identity in the wrong scope',
    profile: 'checkpoint',
    file: 'context/system-context.ts',
    find: '  const registered = new Set(sources.map((source) => source.key));',
    replace: `  if (parts.some((p) => p.key.startsWith('core/instructions/')))
    for (const { source, observation } of observed)
      if (
        source.key.startsWith('core/instructions/') &&
        observation !== Unavailable &&
        observation !== Absent &&
        !parts.some((p) => p.key === source.key)
      )
        parts.push({ key: source.key, text: source.update(observation, observation) });
  const registered = new Set(sources.map((source) => source.key));`,
    clauses: ['LEG-07 (b)'],
  },
  {
    name: 'the revocation of a removed instruction file restates what it said',
    profile: 'checkpoint',
    file: 'context/sources/instruction-files.ts',
    find: "    removal: (file) => FILE_REVOCATION.replace('{path}', file.path),",
    replace: "    removal: (file) => `${FILE_REVOCATION.replace('{path}', file.path)}\\nIt said:\\n${file.content}`,",
    clauses: ['LEG-07 (d)'],
  },
];
