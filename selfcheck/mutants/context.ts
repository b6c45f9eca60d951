import type { Mutant } from './mutant.js';

export const context: Mutant[] = [
  {
    name: 'duplicate source keys compose',
    file: 'context/context-source.ts',
    find: 'if (seen.has(source.key)) throw new ContextCompositionError(`duplicate context source key: ${source.key}`);',
    replace: '',
    clauses: ['CTX-01 (c)'],
  },
  {
    name: "a contributor's sources are sorted by key",
    file: 'context/context-registry.ts',
    find: 'return combine(produced.flat());',
    replace: 'return combine(produced.flat().sort((a, b) => a.key.localeCompare(b.key)));',
    clauses: ['CTX-02 (a)'],
  },
  {
    name: 'contributors combine in registration order',
    file: 'context/context-registry.ts',
    find: 'const ordered = [...this.contributions.keys()].sort();',
    replace: 'const ordered = [...this.contributions.keys()];',
    clauses: ['CTX-03 (b)'],
  },
  {
    name: 'every boundary restates every source',
    file: 'context/system-context.ts',
    find: 'if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace: 'if (current.value !== undefined) {',
    clauses: ['CTX-04 (a)'],
  },
  {
    name: 'an update restates the old value too',
    file: 'context/system-context.ts',
    find: 'parts.push({ key: source.key, text: source.update(previous, observation) });',
    replace:
      'parts.push({ key: source.key, text: `${source.baseline(previous)}\\n${source.update(previous, observation)}` });',
    clauses: ['CTX-05 (c)'],
  },
  {
    name: 'combined changes lose their stable order',
    file: 'context/system-context.ts',
    find: "text: parts.map((p) => p.text).join('\\n\\n'),",
    replace: "text: parts.map((p) => p.text).reverse().join('\\n\\n'),",
    clauses: ['CTX-06 (b)'],
  },
  {
    name: 'an unavailable source forgets its admitted value',
    file: 'context/system-context.ts',
    find: 'if (stored) next[source.key] = stored;',
    replace: '',
    clauses: ['CTX-07 (a)'],
  },
  {
    name: 'a first rendering is not remembered',
    file: 'context/system-context.ts',
    find: `      parts.push({ key: source.key, text: source.baseline(observation) });
      next[source.key] = entry(design, source, observation);`,
    replace: '      parts.push({ key: source.key, text: source.baseline(observation) });',
    clauses: ['CTX-08 (c)', 'CTX-10 (c)'],
  },
  {
    name: 'the removal text is not re-rendered when a new value is admitted',
    file: 'context/system-context.ts',
    find: '      next[source.key] = current;',
    replace: '      next[source.key] = { ...current, removal: stored.removal };',
    clauses: ['CTX-09 (b)', 'CTX-09 (c)'],
  },
  // CTX-12 (d): the entry is overwritten at each admission; a value told earlier is a change again.
  {
    name: 'a changed entry is announced but keeps the value admitted first',
    kind: 'stale cache',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '      next[source.key] = current;',
    replace: '      next[source.key] = stored;',
    clauses: ['CTX-12 (d)'],
  },
  {
    name: 'a value is compared with every value the entry ever held, not the last one admitted',
    kind: 'second occurrence',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '      const current = entry(design, source, observation);\n      if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace:
      '      const current = entry(design, source, observation);\n      const told = [...((stored as { told?: string[] }).told ?? []), canonicalJson(stored.value)];\n      (current as { told?: string[] }).told = told;\n      if (!told.includes(canonicalJson(current.value))) {',
    clauses: ['CTX-12 (d)'],
  },
  {
    name: 'sources of a removed contributor linger',
    file: 'context/system-context.ts',
    find: 'removed.push(...Object.keys(snapshot).filter((key) => !registered.has(key)));',
    replace: '',
    clauses: ['CTX-11 (b)'],
  },
  {
    name: 'changes are detected on text, not on encoded values',
    file: 'context/system-context.ts',
    find: 'if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace: 'if (JSON.stringify(current.value) !== JSON.stringify(stored.value)) {',
    clauses: ['CTX-12 (c)'],
  },
  {
    name: 'the reconcile operation reports a change where there is none',
    file: 'runtime.ts',
    find: '    return result.kind;',
    replace: "    return result.kind === 'unchanged' ? 'updated' : result.kind;",
    clauses: ['CTX-15 (a)'],
  },
  {
    name: 'combined instruction file changes lose their stable order',
    profile: 'checkpoint',
    file: 'context/system-context.ts',
    find: "text: parts.map((p) => p.text).join('\\n\\n'),",
    replace: "text: parts.map((p) => p.text).reverse().join('\\n\\n'),",
    clauses: ['CTX-06 (b)'],
  },
  {
    name: 'an edited instruction file resumes the idle session',
    file: 'runtime.ts',
    find: "    return this.sessions.create(input.id ?? this.ids.next('ses'), input.location, input.projectRoot ?? input.location);",
    replace: `    const created = this.sessions.create(input.id ?? this.ids.next('ses'), input.location, input.projectRoot ?? input.location);
    process.getBuiltinModule('node:fs').watch(input.location, (_, file) => void (file === 'AGENTS.md' && this.run(created.session.id))).unref();
    return created;`,
    clauses: ['CTX-14 (b)'],
  },
  {
    // "Keeps its previously admitted value" read as for good: the change is never announced.
    name: 'an unavailable source keeps its admitted value for good',
    file: 'context/system-context.ts',
    find: '      if (stored) next[source.key] = stored;\n    } else if (observation === Absent) {',
    replace:
      '      if (stored) next[source.key] = stored;\n      held.add(source.key);\n    } else if (stored && held.has(source.key)) {\n      next[source.key] = stored;\n    } else if (observation === Absent) {',
    also: [
      {
        file: 'context/system-context.ts',
        find: 'export async function reconcile(',
        replace: 'const held = new Set<string>();\nexport async function reconcile(',
      },
    ],
    clauses: ['CTX-07 (b)'],
  },
  {
    // Change found by a file's modification time rather than its text: a file written back reads as changed.
    name: 'an instruction file counts as changed whenever it was written',
    file: 'context/sources/instructions.ts',
    find: '    encode: (files) => files.map((f) => ({ path: f.path, content: f.content })),',
    replace:
      "    encode: (files) =>\n      files.map((f) => {\n        let written = 0;\n        try {\n          written = process.getBuiltinModule('node:fs').statSync(f.path).mtimeMs;\n        } catch {}\n        return { path: f.path, content: f.content, written };\n      }),",
    clauses: ['CTX-13 (a)'],
  },
  {
    name: 'a contribution without sources is refused',
    file: 'context/context-registry.ts',
    find: '    return combine(produced.flat());',
    replace:
      '    const empty = ordered.find((_, i) => produced[i]!.length === 0);\n    if (empty) throw new ContextCompositionError(`context contribution ${empty} has no sources`);\n    return combine(produced.flat());',
    clauses: ['CTX-17 (a)'],
  },
  {
    name: 'a context whose sources are absent is not ready',
    file: 'context/system-context.ts',
    find: 'const unavailable = observed.filter((o) => o.observation === Unavailable).map((o) => o.source.key);',
    replace:
      'const unavailable = observed.filter((o) => o.observation === Unavailable || o.observation === Absent).map((o) => o.source.key);',
    clauses: ['CTX-17 (b)'],
  },
  {
    name: 'a contribution without sources is taken as still loading',
    needs: 'kit-sources',
    file: 'context/context-registry.ts',
    find: '    return combine(produced.flat());',
    replace:
      "    const waiting = ordered.filter((_, i) => produced[i]!.length === 0).map((key): ContextSource => ({ key: `${key.replace(/[^a-z0-9._/-]/g, '-')}/pending`, encode: () => null, decode: () => null, load: async () => Unavailable, baseline: () => '', update: () => '' }));\n    return combine([...produced.flat(), ...waiting]);",
    also: [
      {
        file: 'context/context-registry.ts',
        find: "import { combine, ContextCompositionError, type ContextSource } from './context-source.js';",
        replace:
          "import { combine, ContextCompositionError, Unavailable, type ContextSource } from './context-source.js';",
      },
    ],
    clauses: ['CTX-17 (a)'],
  },
  {
    name: 'a source with no value is announced as having none at every boundary',
    file: 'context/system-context.ts',
    find: '      if (stored) removed.push(source.key);',
    replace:
      '      if (stored) removed.push(source.key);\n      else parts.push({ key: source.key, text: `${source.key} has no value` });',
    clauses: ['CTX-17 (b)'],
  },
  {
    name: 'the first snapshot comes from a second observation',
    file: 'context/system-context.ts',
    find: "  return { kind: 'ready', baseline: render(design, observed) };",
    replace:
      "  const again = render(design, await observe(sources));\n  return { kind: 'ready', baseline: { parts: render(design, observed).parts, snapshot: again.snapshot } };",
    clauses: ['CTX-16 (a)'],
  },
  {
    name: 'an update stores a snapshot observed after its text',
    file: 'context/system-context.ts',
    find: '  const registered = new Set(sources.map((source) => source.key));',
    replace:
      '  for (const { source, observation } of await observe(sources)) {\n    if (observation !== Unavailable && observation !== Absent && next[source.key]) next[source.key] = entry(design, source, observation);\n  }\n  const registered = new Set(sources.map((source) => source.key));',
    clauses: ['CTX-16 (b)', 'CTX-16 (c)'],
  },
  {
    name: 'the first baseline is rendered from a second observation',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: "  return { kind: 'ready', baseline: render(design, observed) };\n}\n\n/**\n * Compares",
    replace:
      "  const again = render(design, await observe(sources));\n  return { kind: 'ready', baseline: { parts: again.parts, snapshot: render(design, observed).snapshot } };\n}\n\n/**\n * Compares",
    clauses: ['CTX-16 (a)'],
  },
  {
    name: 'an update text is rendered from a second read of its source',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: 'parts.push({ key: source.key, text: source.update(previous, observation) });',
    replace:
      'const reread = await source.load();\n        parts.push({ key: source.key, text: source.update(previous, reread === Unavailable || reread === Absent ? observation : reread) });',
    clauses: ['CTX-16 (b)'],
  },
  {
    name: 'an unavailable source counts as removed',
    file: 'context/system-context.ts',
    find: '    if (observation === Unavailable) {\n      if (stored) next[source.key] = stored;\n    } else if (observation === Absent) {',
    replace: '    if (observation === Absent || observation === Unavailable) {',
    clauses: ['CTX-07 (a)'],
  },
  {
    name: 'a source that loads late is announced as an update',
    file: 'context/system-context.ts',
    find: '    } else if (!stored) {\n      parts.push({ key: source.key, text: source.baseline(observation) });',
    replace:
      '    } else if (!stored) {\n      parts.push({ key: source.key, text: source.update(observation, observation) });',
    clauses: ['CTX-08 (a)', 'CTX-10 (b)'],
  },
  {
    name: 'duplicate keys are checked within each contribution only',
    file: 'context/context-registry.ts',
    find: '    return combine(produced.flat());',
    replace: '    for (const sources of produced) combine(sources);\n    return produced.flat();',
    also: [
      {
        file: 'context/location-contexts.ts',
        find: '    return combine([...sources, ...discovered, skillGuidanceSource(() => this.host.agents.permittedSkills(agent))]);',
        replace:
          '    return [...sources, ...discovered, skillGuidanceSource(() => this.host.agents.permittedSkills(agent))];',
      },
    ],
    clauses: ['CTX-01 (c)'],
  },
  {
    name: 'the composition error does not name the key',
    file: 'context/context-source.ts',
    find: 'throw new ContextCompositionError(`duplicate context source key: ${source.key}`);',
    replace: "throw new ContextCompositionError('duplicate context source key');",
    clauses: ['CTX-01 (d)'],
  },
  {
    name: 'sources combine in the order their loaders finish',
    file: 'context/system-context.ts',
    find: '  const observations = await Promise.all(sources.map((source) => source.load()));\n  return sources.map((source, i) => ({ source, observation: observations[i] }));',
    replace:
      '  const done: Observed[] = [];\n  await Promise.all(sources.map(async (source) => done.push({ source, observation: await source.load() })));\n  return done;',
    clauses: ['CTX-02 (b)', 'CTX-03 (c)'],
  },
  {
    name: 'the first baseline renders its sources in key order',
    file: 'context/system-context.ts',
    find: "  return { kind: 'ready', baseline: render(design, observed) };\n}\n\n/**\n * Compares",
    replace:
      "  const byKey = [...observed].sort((a, b) => (a.source.key < b.source.key ? -1 : a.source.key > b.source.key ? 1 : 0));\n  return { kind: 'ready', baseline: render(design, byKey) };\n}\n\n/**\n * Compares",
    clauses: ['CTX-02 (a)'],
  },
  {
    name: 'the first baseline lists the sources in the order their loaders finish',
    kind: 'ordering in time',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: 'export async function initialize(design: ContextDesign, sources: ContextSource[]): Promise<Initialization> {\n  const observed = await observe(sources);',
    replace:
      'export async function initialize(design: ContextDesign, sources: ContextSource[]): Promise<Initialization> {\n  const observed: Observed[] = [];\n  await Promise.all(sources.map(async (source) => observed.push({ source, observation: await source.load() })));',
    clauses: ['CTX-02 (b)', 'CTX-03 (c)'],
  },
  {
    name: 'encoded values are compared by identity',
    file: 'context/system-context.ts',
    find: 'if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace: 'if (current.value !== stored.value) {',
    clauses: ['CTX-04 (a)'],
  },
  {
    name: 'the update renderer gets its values in the wrong order',
    file: 'context/system-context.ts',
    find: 'parts.push({ key: source.key, text: source.update(previous, observation) });',
    replace: 'parts.push({ key: source.key, text: source.update(observation as never, previous) });',
    clauses: ['CTX-05 (b)', 'CTX-05 (c)'],
  },
  {
    name: 'an absent source announces its removal but stays in the snapshot',
    file: 'context/system-context.ts',
    find: '      if (stored) removed.push(source.key);',
    replace: '      if (stored) {\n        removed.push(source.key);\n        next[source.key] = stored;\n      }',
    clauses: ['CTX-09 (d)'],
  },
  {
    name: "a removed contributor's sources are announced but stay in the snapshot",
    file: 'context/system-context.ts',
    find: '    if (removal !== undefined) parts.push({ key, text: removal });',
    replace:
      '    if (removal !== undefined) parts.push({ key, text: removal });\n    if (!registered.has(key)) next[key] = snapshot[key]!;',
    clauses: ['CTX-11 (a)'],
  },
  {
    name: 'the snapshot keeps the rendered text instead of the encoded value',
    file: 'context/system-context.ts',
    find: '  return { value: comparable(design, source, value), ...(removal === undefined ? {} : { removal }) };',
    replace:
      '  const kept = design.hashesSnapshot() ? comparable(design, source, value) : source.baseline(value);\n  return { value: kept, ...(removal === undefined ? {} : { removal }) };',
    clauses: ['CTX-12 (a)'],
  },
  {
    // Its sampling runs beside the admission: one still running when the run closes the store is dropped.
    name: 'the context is sampled when a prompt is admitted',
    file: 'runtime.ts',
    find: '    if (input.resume !== false) this.coordinator.wake(input.sessionId);',
    replace:
      "    void (async () => {\n      const epoch = this.epochs.find(input.sessionId);\n      if (!epoch) return;\n      const result = await reconcile(this.profile, await this.contextSources(this.sessions.get(input.sessionId)), epoch.snapshot);\n      if (result.kind !== 'updated') return;\n      const { text, keys, snapshot } = result;\n      this.log.append(input.sessionId, [{ type: 'context.updated', messageId: this.ids.next('msg'), text, keys, snapshot }]);\n    })().catch(() => {});\n    if (input.resume !== false) this.coordinator.wake(input.sessionId);",
    clauses: ['CTX-13 (b)'],
  },
  {
    // The switch answers once its announcement is written: the defect shows whatever the machine's load.
    name: 'a model switch announces the context as it is at the switch',
    file: 'runtime.ts',
    find: '    this.sessions.select(sessionId, selection, this.profile.endsEpochOnSwitch() && selection.model !== undefined);',
    replace:
      "    this.sessions.select(sessionId, selection, this.profile.endsEpochOnSwitch() && selection.model !== undefined);\n    return (async () => {\n      const epoch = this.epochs.find(sessionId);\n      if (!epoch) return;\n      const result = await reconcile(this.profile, await this.contextSources(this.sessions.get(sessionId)), epoch.snapshot);\n      if (result.kind !== 'updated') return;\n      const { text, keys, snapshot } = result;\n      this.log.append(sessionId, [{ type: 'context.updated', messageId: this.ids.next('msg'), text, keys, snapshot }]);\n    })();\n",
    clauses: ['CTX-13 (b)'],
  },
  {
    name: 'a date rollover resumes idle sessions to announce the new date',
    file: 'runtime.ts',
    find: '    const clock = options.clock ?? systemClock;',
    replace:
      '    const clock = options.clock ?? systemClock;\n    const rollover = (sessionId: string) => {\n      const midnight = new Date(clock.now());\n      midnight.setUTCHours(24, 0, 0, 0);\n      void clock.until(midnight, new AbortController().signal).then(() => this.run(sessionId));\n    };\n    Object.assign(this, { rollover });',
    also: [
      {
        file: 'runtime.ts',
        find: "    return this.sessions.create(input.id ?? this.ids.next('ses'), input.location, input.projectRoot ?? input.location);",
        replace:
          "    const created = this.sessions.create(input.id ?? this.ids.next('ses'), input.location, input.projectRoot ?? input.location);\n    (this as unknown as { rollover(id: string): void }).rollover(created.session.id);\n    return created;",
      },
    ],
    clauses: ['CTX-14 (a)'],
  },
  {
    name: 'previewing the context ignores a pending replacement',
    file: 'runtime.ts',
    find: '    const result = epoch.replacementPending\n      ? await replace(this.profile, sources, epoch.snapshot)\n      : await reconcile(this.profile, sources, epoch.snapshot);',
    replace: '    const result = await reconcile(this.profile, sources, epoch.snapshot);',
    clauses: ['CTX-15 (c)'],
  },
  {
    name: 'each change at a boundary becomes a system message of its own',
    file: 'runner/context-boundary.ts',
    find: "      const messageId = this.deps.ids.next('msg');\n      const { text, keys, snapshot } = result;\n      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);",
    replace:
      "      const { text, keys, snapshot } = result;\n      text.split('\\n\\n').forEach((part, i) => {\n        const messageId = this.deps.ids.next('msg');\n        this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text: part, keys: [keys[i]!], snapshot }]);\n      });",
    clauses: ['CTX-06 (a)'],
  },
  {
    name: 'one change is admitted per boundary, the others wait for the next',
    file: 'context/system-context.ts',
    find: '      const current = entry(design, source, observation);\n      if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace:
      '      const current = entry(design, source, observation);\n      if (canonicalJson(current.value) !== canonicalJson(stored.value) && parts.length > 0) {\n        next[source.key] = stored;\n        continue;\n      }\n      if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    clauses: ['CTX-06 (a)'],
  },
  {
    name: 'the epoch is read once per baseline, so the snapshot a change advanced is never read again',
    kind: 'stale cache',
    file: 'context/epoch-store.ts',
    find: `find(sessionId: string): ContextEpoch | undefined {
    const row = this.byId.get(sessionId);
    if (!row) return undefined;
    const parts = JSON.parse(row.baseline) as string[];
    return {
      parts,
      baseline: parts.join('\\n\\n'),
      snapshot: JSON.parse(row.snapshot),
      replacementPending: row.replacement_pending === 1,
      ...(row.provider === null ? {} : { provider: row.provider }),
    };
  }`,
    replace: `private readonly parsed = new Map<string, { baseline: string; epoch: Omit<ContextEpoch, 'replacementPending'> }>();

  find(sessionId: string): ContextEpoch | undefined {
    const row = this.byId.get(sessionId);
    if (!row) return undefined;
    const cached = this.parsed.get(sessionId);
    if (cached && cached.baseline === row.baseline)
      return { ...cached.epoch, replacementPending: row.replacement_pending === 1 };
    const parts = JSON.parse(row.baseline) as string[];
    const epoch = { parts, baseline: parts.join('\\n\\n'), snapshot: JSON.parse(row.snapshot), ...(row.provider === null ? {} : { provider: row.provider }) };
    this.parsed.set(sessionId, { baseline: row.baseline, epoch });
    return { ...epoch, replacementPending: row.replacement_pending === 1 };
  }`,
    // A change told once is told again: CTX-04. Only kit sources register a source mid-epoch (CTX-10).
    clauses: ['CTX-04 (a)'],
  },
  {
    name: 'the snapshot advances in process memory only, so a restart compares with the first one',
    kind: 'state held only in memory',
    file: 'context/epoch-projection.ts',
    find: `case 'context.updated': {
      const advanced = db
        .prepare('UPDATE context_epochs SET snapshot = ? WHERE session_id = ?')
        .run(JSON.stringify(event.snapshot), sessionId);
      if (advanced.changes !== 1) throw new Error(\`session \${sessionId} has no context epoch to update\`);
      return;
    }`,
    replace: `case 'context.updated':
      return;`,
    also: [
      {
        file: 'context/epoch-store.ts',
        find: 'find(sessionId: string): ContextEpoch | undefined {',
        replace: `private readonly announced = new Map<string, ContextSnapshot>();

  advance(sessionId: string, parts: string[], snapshot: ContextSnapshot): void {
    this.announced.set(\`\${sessionId}\\0\${JSON.stringify(parts)}\`, snapshot);
  }

  find(sessionId: string): ContextEpoch | undefined {`,
      },
      {
        file: 'context/epoch-store.ts',
        find: 'snapshot: JSON.parse(row.snapshot),',
        replace: 'snapshot: this.announced.get(`${sessionId}\\0${row.baseline}`) ?? JSON.parse(row.snapshot),',
      },
      {
        file: 'runner/context-boundary.ts',
        find: "this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);",
        replace: `this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);
      this.deps.epochs.advance(this.session.id, epoch.parts, snapshot);`,
      },
    ],
    clauses: ['CTX-04 (a)', 'MCS-03 (c)'],
  },
  {
    // "Do not remind the model of something it was already told": a dedupe of update texts.
    name: 'an update whose text was already sent once in the session is suppressed',
    kind: 'second occurrence',
    file: 'runner/context-boundary.ts',
    find: `if (result.kind === 'updated') {`,
    replace: `const told = (text: string) =>
      this.deps.log
        .after(this.session.id, 0)
        .some((stored) => stored.event.type === 'context.updated' && stored.event.text === text);
    if (result.kind === 'updated' && !told(result.text)) {`,
    clauses: ['CTX-05 (a)'],
  },
  {
    name: 'a change is detected by the length of the encoded value',
    file: 'context/system-context.ts',
    find: '      if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace: '      if (canonicalJson(current.value).length !== canonicalJson(stored.value).length) {',
    clauses: ['CTX-05 (a)'],
  },
  {
    name: 'an update is rendered from the value admitted before',
    kind: 'stale cache',
    file: 'context/system-context.ts',
    find: 'parts.push({ key: source.key, text: source.update(previous, observation) });',
    replace: 'parts.push({ key: source.key, text: source.update(previous, previous) });',
    clauses: ['CTX-05 (b)'],
  },
  {
    // A runtime that compares snapshot entries with JSON.stringify: key order is not canonical.
    name: 'change detection compares JSON text without canonical key order',
    kind: 'partial comparison',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: 'if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace: 'if (JSON.stringify(current.value) !== JSON.stringify(stored.value)) {',
    clauses: ['CTX-04 (b)'],
  },
  {
    name: 'changes are detected on the rendered update text',
    kind: 'partial comparison',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '      if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace:
      '      const told = (value: unknown) => source.update(value, value);\n      if (design.hashesSnapshot() ? canonicalJson(current.value) !== canonicalJson(stored.value) : told(observation) !== told(source.decode(stored.value))) {',
    clauses: ['CTX-04 (b)', 'CTX-12 (c)'],
  },
  // CTX-03 (a): the sources of the contributors are read concurrently, at every boundary.
  {
    name: 'the sources are read one after another',
    kind: 'ordering in time',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '  const observations = await Promise.all(sources.map((source) => source.load()));',
    replace:
      '  const observations: Observation<unknown>[] = [];\n  for (const source of sources) observations.push(await source.load());',
    clauses: ['CTX-03 (a)'],
  },
  {
    name: "the sources are read concurrently when an epoch begins, one after another at the epoch's later boundaries",
    kind: 'second occurrence',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '  const observed = await observe(sources);\n  const parts: { key: string; text: string }[] = [];',
    replace:
      '  // Later boundaries read the sources one after another.\n  const observed: Observed[] = [];\n  for (const source of sources) observed.push({ source, observation: await source.load() });\n  const parts: { key: string; text: string }[] = [];',
    clauses: ['CTX-03 (a)'],
  },
  {
    name: 'contributions combine in descending key order',
    file: 'context/context-registry.ts',
    find: 'const ordered = [...this.contributions.keys()].sort();',
    replace: 'const ordered = [...this.contributions.keys()].sort().reverse();',
    clauses: ['CTX-03 (b)'],
  },
  // CTX-01 (a, b): a key is its whole namespaced path, from boundary to boundary.
  {
    name: 'two source keys that end alike are taken for one',
    kind: 'partial comparison',
    needs: 'kit-sources',
    file: 'context/context-source.ts',
    find: '    if (seen.has(source.key)) throw new ContextCompositionError(`duplicate context source key: ${source.key}`);\n    seen.add(source.key);',
    replace:
      "    const name = source.key.slice(source.key.lastIndexOf('/') + 1);\n    if (seen.has(name)) throw new ContextCompositionError(`duplicate context source key: ${source.key}`);\n    seen.add(name);",
    clauses: ['CTX-01 (a)'],
  },
  {
    name: "the snapshot keeps each value under the last part of its source's key",
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '    snapshot[source.key] = entry(design, source, observation);',
    replace: "    snapshot[source.key.slice(source.key.lastIndexOf('/') + 1)] = entry(design, source, observation);",
    also: [
      {
        file: 'context/system-context.ts',
        find: '    const stored = snapshot[source.key];',
        replace: "    const stored = snapshot[source.key.slice(source.key.lastIndexOf('/') + 1)];",
      },
      {
        file: 'context/system-context.ts',
        find: '      next[source.key] = entry(design, source, observation);',
        replace: "      next[source.key.slice(source.key.lastIndexOf('/') + 1)] = entry(design, source, observation);",
      },
      {
        file: 'context/system-context.ts',
        find: '      next[source.key] = current;',
        replace: "      next[source.key.slice(source.key.lastIndexOf('/') + 1)] = current;",
      },
    ],
    clauses: ['CTX-01 (b)'],
  },
  {
    name: 'the contributions are listed once, when the first epoch composes its context',
    kind: 'stale cache',
    needs: 'kit-sources',
    file: 'context/context-registry.ts',
    find: '    const ordered = [...this.contributions.keys()].sort();',
    replace:
      '    this.listed ??= [...this.contributions.keys()].sort();\n    const ordered = this.listed.filter((key) => this.contributions.has(key));',
    also: [
      {
        file: 'context/context-registry.ts',
        find: '  private readonly contributions = new Map<string, ContextProducer>();',
        replace: '  private readonly contributions = new Map<string, ContextProducer>();\n  private listed?: string[];',
      },
    ],
    clauses: ['CTX-10 (a)'],
  },
  {
    name: 'a removed source without a removal text is announced with a generic one',
    file: 'context/system-context.ts',
    find: '    if (removal !== undefined) parts.push({ key, text: removal });',
    replace: '    parts.push({ key, text: removal ?? `${key} no longer applies` });',
    clauses: ['CTX-11 (c)'],
  },
  {
    name: 'a removed contributor leaves its sources in the snapshot as if unavailable',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '  removed.push(...Object.keys(snapshot).filter((key) => !registered.has(key)));',
    replace: '  for (const key of Object.keys(snapshot)) if (!registered.has(key)) next[key] = snapshot[key]!;',
    clauses: ['CTX-11 (a)', 'CTX-11 (b)'],
  },
  {
    name: 'a removed source without a removal text adds an empty part',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '    if (removal !== undefined) parts.push({ key, text: removal });',
    replace: "    parts.push({ key, text: removal ?? '' });",
    clauses: ['CTX-11 (c)'],
  },
  {
    name: 'the preview counts only a newly appearing source as a change',
    file: 'runtime.ts',
    find: '    return result.kind;',
    replace:
      "    return result.kind === 'updated' && result.keys.every((key) => key in epoch.snapshot) ? 'unchanged' : result.kind;",
    clauses: ['CTX-15 (b)'],
  },
  {
    name: 'a pending replacement is previewed as blocked without reading its sources',
    file: 'runtime.ts',
    find: '      ? await replace(this.profile, sources, epoch.snapshot)',
    replace: "      ? ({ kind: 'replacement-blocked', unavailable: [] } as const)",
    clauses: ['CTX-15 (d)'],
  },
  {
    name: 'the reconcile operation reports nothing to update as a ready replacement',
    file: 'runtime.ts',
    find: '    return result.kind;',
    replace: "    return result.kind === 'unchanged' ? 'replacement-ready' : result.kind;",
    clauses: ['CTX-15 (a)'],
  },
  {
    name: "the reconcile operation answers each session's first outcome again",
    kind: 'stale cache',
    needs: 'kit-sources',
    file: 'runtime.ts',
    find: '    return result.kind;',
    replace:
      "    const previews = ((this as unknown as { previews?: Map<string, Reconciliation['kind']> }).previews ??= new Map());\n    if (!previews.has(sessionId)) previews.set(sessionId, result.kind);\n    return previews.get(sessionId)!;",
    clauses: ['CTX-15 (b)'],
  },
  {
    name: 'a pending replacement is previewed against an empty snapshot',
    needs: 'kit-sources',
    file: 'runtime.ts',
    find: '      ? await replace(this.profile, sources, epoch.snapshot)',
    replace: '      ? await replace(this.profile, sources, {})',
    clauses: ['CTX-15 (c)'],
  },
  {
    name: 'a pending replacement is previewed as an ordinary reconciliation',
    needs: 'kit-sources',
    file: 'runtime.ts',
    find: '      ? await replace(this.profile, sources, epoch.snapshot)',
    replace: '      ? await reconcile(this.profile, sources, {})',
    clauses: ['CTX-15 (d)'],
  },
  {
    name: 'an absent source is taken for an unavailable one',
    file: 'context/system-context.ts',
    find: '      if (stored) removed.push(source.key);',
    replace: '      if (stored) next[source.key] = stored;',
    clauses: ['CTX-09 (a)'],
  },
  {
    name: 'a removal is told only beside another change',
    file: 'context/system-context.ts',
    find: '  for (const key of removed.sort()) {',
    replace: '  for (const key of parts.length > 0 ? removed.sort() : []) {',
    clauses: ['CTX-09 (a)'],
  },
  {
    name: 'removal texts are kept in process memory, not in the snapshot',
    kind: 'state held only in memory',
    file: 'context/system-context.ts',
    find: '  return { value: comparable(design, source, value), ...(removal === undefined ? {} : { removal }) };',
    replace:
      '  if (removal !== undefined) removals.set(source.key, removal);\n  return { value: comparable(design, source, value) };',
    also: [
      {
        file: 'context/system-context.ts',
        find: 'function entry(design: ContextDesign, source: ContextSource, value: unknown): SnapshotEntry {',
        replace:
          'const removals = new Map<string, string>();\nfunction entry(design: ContextDesign, source: ContextSource, value: unknown): SnapshotEntry {',
      },
      {
        file: 'context/system-context.ts',
        find: '    const removal = snapshot[key]!.removal;',
        replace: '    const removal = snapshot[key]!.removal ?? removals.get(key);',
      },
    ],
    clauses: ['CTX-09 (b)', 'CTX-12 (b)'],
  },
  {
    name: 'a changed value keeps the removal text of the value it replaced',
    kind: 'second occurrence',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '      next[source.key] = current;',
    replace:
      '      const replaced = source.removal?.(source.decode(stored.value));\n      next[source.key] = { ...current, ...(replaced === undefined ? {} : { removal: replaced }) };',
    clauses: ['CTX-09 (c)'],
  },
  {
    name: 'a removed source leaves an empty entry in the snapshot',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '      if (stored) removed.push(source.key);',
    replace:
      '      if (stored) {\n        removed.push(source.key);\n        next[source.key] = { value: null };\n      }',
    clauses: ['CTX-09 (d)'],
  },
  {
    // The failure is reported as the clause asks, and the drain goes on without the sources it could not compose.
    name: 'a composition error is reported, and the turn goes out without any source',
    file: 'runner/context-boundary.ts',
    find: "      if (error instanceof ContextCompositionError) throw new ContextBlocked('context-invalid', error.message);\n      throw error;",
    replace:
      "      if (!(error instanceof ContextCompositionError)) throw error;\n      deps.log.append(session.id, [{ type: 'session.failed', code: 'context-invalid', message: error.message }]);\n      sources = [];",
    clauses: ['CTX-01 (e)'],
  },
  {
    name: 'the baseline silently keeps one of two sources whose keys end alike',
    kind: 'identity in the wrong scope',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '    if (observation === Unavailable || observation === Absent) continue;\n    parts.push({ key: source.key, text: source.baseline(observation) });',
    replace:
      "    if (observation === Unavailable || observation === Absent) continue;\n    const name = (key: string) => key.slice(key.lastIndexOf('/') + 1);\n    if (parts.some((part) => name(part.key) === name(source.key))) continue;\n    parts.push({ key: source.key, text: source.baseline(observation) });",
    clauses: ['CTX-01 (a)'],
  },
  {
    name: 'the composition error names the source by the last part of its key',
    file: 'context/context-source.ts',
    find: 'throw new ContextCompositionError(`duplicate context source key: ${source.key}`);',
    replace:
      "throw new ContextCompositionError(`duplicate context source key: ${source.key.slice(source.key.lastIndexOf('/') + 1)}`);",
    clauses: ['CTX-01 (d)'],
  },
  {
    name: 'a composition error is reported, and the turn goes out with the duplicate left out',
    file: 'context/context-source.ts',
    find: '    if (seen.has(source.key)) throw new ContextCompositionError(`duplicate context source key: ${source.key}`);\n    seen.add(source.key);\n  }\n  return sources;',
    replace:
      '    if (seen.has(source.key)) compositionErrors.push(`duplicate context source key: ${source.key}`);\n    seen.add(source.key);\n  }\n  return sources.filter((source, i) => sources.findIndex((s) => s.key === source.key) === i);',
    also: [
      {
        file: 'context/context-source.ts',
        find: "/** Combines sources in the caller's order; a repeated key is a composition error naming it. */",
        replace:
          "export const compositionErrors: string[] = [];\n/** Combines sources in the caller's order; a repeated key is a composition error naming it. */",
      },
      {
        file: 'runner/context-boundary.ts',
        find: "import { ContextCompositionError, type ContextSource } from '../context/context-source.js';",
        replace:
          "import { compositionErrors, ContextCompositionError, type ContextSource } from '../context/context-source.js';",
      },
      {
        file: 'runner/context-boundary.ts',
        find: '    const epoch = deps.epochs.find(session.id);\n    if (epoch && !epoch.replacementPending && endsAtProviderSwitch(deps, epoch))',
        replace:
          "    for (const message of compositionErrors.splice(0)) deps.log.append(session.id, [{ type: 'session.failed', code: 'context-invalid', message }]);\n    const epoch = deps.epochs.find(session.id);\n    if (epoch && !epoch.replacementPending && endsAtProviderSwitch(deps, epoch))",
      },
    ],
    clauses: ['CTX-01 (e)'],
  },
  {
    // What the process saw of an outage is kept in its memory, beside the snapshot.
    name: 'a source back from an outage is taken as settled for one boundary before its change is told',
    file: 'context/system-context.ts',
    find: '      if (stored) next[source.key] = stored;\n    } else if (observation === Absent) {',
    replace:
      '      if (stored) next[source.key] = stored;\n      backFromOutage.add(source.key);\n    } else if (stored && backFromOutage.delete(source.key)) {\n      next[source.key] = stored;\n    } else if (observation === Absent) {',
    also: [
      {
        file: 'context/system-context.ts',
        find: 'export async function reconcile(',
        replace: 'const backFromOutage = new Set<string>();\nexport async function reconcile(',
      },
    ],
    clauses: ['CTX-07 (c)'],
  },
  {
    name: "an unavailable source's entry is kept with its value cleared",
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '      if (stored) next[source.key] = stored;\n    } else if (observation === Absent) {',
    replace:
      '      if (stored) next[source.key] = { ...stored, value: null };\n    } else if (observation === Absent) {',
    clauses: ['CTX-07 (b)'],
  },
  {
    name: 'a source that loads for the first time during the epoch joins the snapshot without being told',
    file: 'context/system-context.ts',
    find: '    } else if (!stored) {\n      parts.push({ key: source.key, text: source.baseline(observation) });',
    replace: '    } else if (!stored) {',
    clauses: ['CTX-08 (b)'],
  },
  {
    name: 'a source that has not loaded yet is announced as pending',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '      if (stored) next[source.key] = stored;\n    } else if (observation === Absent) {',
    replace:
      '      if (stored) next[source.key] = stored;\n      else parts.push({ key: source.key, text: `${source.key} is not available yet` });\n    } else if (observation === Absent) {',
    clauses: ['CTX-08 (a)'],
  },
  {
    name: 'a source that loads during the epoch renders the baseline again instead of a system message',
    needs: 'kit-sources',
    file: 'runner/context-boundary.ts',
    find: "    if (result.kind === 'updated') {\n      const messageId = this.deps.ids.next('msg');",
    replace:
      "    if (result.kind === 'updated' && result.keys.some((key) => !(key in epoch.snapshot))) {\n      const fresh = await replace(this.deps.profile, this.sources, epoch.snapshot);\n      if (fresh.kind === 'replacement-ready') this.deps.log.append(this.session.id, [{ type: 'context.replaced', parts: systemParts(this.deps.profile, fresh.baseline), snapshot: fresh.baseline.snapshot, provider: providerOf(this.deps.provider) }]);\n    } else if (result.kind === 'updated') {\n      const messageId = this.deps.ids.next('msg');",
    clauses: ['CTX-08 (b)', 'CTX-10 (a)'],
  },
  {
    name: 'a first rendering is remembered by its text, so the next boundary tells it again',
    needs: 'kit-sources',
    file: 'context/system-context.ts',
    find: '      parts.push({ key: source.key, text: source.baseline(observation) });\n      next[source.key] = entry(design, source, observation);',
    replace:
      '      parts.push({ key: source.key, text: source.baseline(observation) });\n      next[source.key] = { ...entry(design, source, observation), value: source.baseline(observation) };',
    clauses: ['CTX-08 (c)', 'CTX-10 (c)'],
  },
  {
    name: 'a contribution registered during an epoch joins the context one boundary late',
    kind: 'ordering in time',
    needs: 'kit-sources',
    file: 'context/context-registry.ts',
    find: '    const ordered = [...this.contributions.keys()].sort();\n    const produced = await Promise.all(ordered.map((key) => this.contributions.get(key)!()));',
    replace:
      '    const ordered = [...this.contributions.keys()].filter((key) => this.seen.has(key)).sort();\n    for (const key of this.contributions.keys()) this.seen.add(key);\n    if (this.seen.size === this.contributions.size && ordered.length === 0) ordered.push(...[...this.seen].sort());\n    const produced = await Promise.all(ordered.map((key) => this.contributions.get(key)!()));',
    also: [
      {
        file: 'context/context-registry.ts',
        find: '  private readonly contributions = new Map<string, ContextProducer>();',
        replace:
          '  private readonly contributions = new Map<string, ContextProducer>();\n  private readonly seen = new Set<string>();',
      },
    ],
    clauses: ['CTX-10 (a)'],
  },
  {
    // The removal text is rendered again from the stored value when it is due: the snapshot holds no copy.
    name: 'the snapshot entry drops the removal text, which is rendered when the removal comes',
    file: 'context/system-context.ts',
    find: '  return { value: comparable(design, source, value), ...(removal === undefined ? {} : { removal }) };',
    replace: '  return { value: comparable(design, source, value), ...(removal === undefined ? {} : {}) };',
    also: [
      {
        file: 'context/system-context.ts',
        find: '    const removal = snapshot[key]!.removal;',
        replace:
          '    const source = sources.find((candidate) => candidate.key === key);\n    const removal = snapshot[key]!.removal ?? source?.removal?.(source.decode(snapshot[key]!.value));',
      },
    ],
    clauses: ['CTX-12 (b)'],
  },
];
