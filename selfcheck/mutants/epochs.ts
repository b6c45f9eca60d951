import type { Mutant } from './mutant.js';

export const epochs: Mutant[] = [
  {
    name: 'the first observation is also announced as a system message',
    file: 'runner/context-boundary.ts',
    find: 'parts: systemParts(deps.profile, initialization.baseline), snapshot }]);\n    return new ContextBoundary(deps, session, sources, true);',
    replace:
      'parts: systemParts(deps.profile, initialization.baseline), snapshot: {} }]);\n    return new ContextBoundary(deps, session, sources, false);',
    breaks: ['EPO-01'],
  },
  {
    name: 'an unavailable source is left out of the first baseline',
    file: 'context/system-context.ts',
    find: "if (unavailable.length > 0) return { kind: 'blocked', unavailable };\n  return { kind: 'ready', baseline: render(design, observed) };",
    replace: "return { kind: 'ready', baseline: render(design, observed) };",
    breaks: ['EPO-02'],
  },
  {
    name: 'prompts are promoted before the epoch exists',
    file: 'runner/drain.ts',
    find: '    let context: ContextBoundary;',
    replace: '    promoteAtBoundary(deps, sessionId);\n    let context: ContextBoundary;',
    breaks: ['EPO-03'],
  },
  {
    name: 'the baseline is rendered afresh for every turn',
    file: 'runner/context-boundary.ts',
    find: 'if (epoch && !epoch.replacementPending) return new ContextBoundary(deps, session, sources, false);',
    replace: '',
    breaks: ['EPO-04'],
  },
  {
    name: 'the sent baseline is not the stored one',
    file: 'runner/provider-turn.ts',
    find: '    baseline,\n    history: modelHistory',
    replace: '    baseline: baseline.map((part) => `${part}\\n`),\n    history: modelHistory',
    breaks: ['EPO-05'],
  },
  {
    name: 'a move keeps the old epoch',
    file: 'session/session-store.ts',
    find: "[{ type: 'session.moved', location, projectRoot }, { type: 'context.cleared' }]",
    replace: "[{ type: 'session.moved', location, projectRoot }]",
    breaks: ['EPO-07'],
  },
  {
    name: 'a switch of agent or model starts a new epoch',
    file: 'session/session-store.ts',
    find: "      ...(endsEpoch ? [{ type: 'context.replacement-requested' as const }] : []),",
    replace: "      { type: 'context.replacement-requested' as const },",
    breaks: ['EPO-08', 'AGT-02'],
  },
  {
    name: 'a completed compaction keeps the old baseline',
    file: 'context/epoch-projection.ts',
    find: "    case 'compaction.ended':\n      db.prepare('UPDATE context_epochs SET replacement_pending = 1 WHERE session_id = ?').run(sessionId);\n",
    replace: "    case 'compaction.ended':\n",
    breaks: ['EPO-06'],
  },
  {
    name: 'system messages of the old epoch stay in model history',
    file: 'history/model-history.ts',
    find: "m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    replace: "m.role !== 'compaction' && (m.seq > checkpoint.cutSeq || m.role === 'system'),",
    breaks: ['EPO-06'],
  },
  {
    name: 'a replacement baseline leaves out unavailable admitted sources',
    file: 'context/system-context.ts',
    find: "  if (unavailable.length > 0) return { kind: 'replacement-blocked', unavailable };",
    replace: '',
    breaks: ['EPO-09'],
  },
  {
    name: 'a never-admitted source blocks the replacement baseline',
    file: 'context/system-context.ts',
    find: 'observed.filter((o) => o.observation === Unavailable && snapshot[o.source.key])',
    replace: 'observed.filter((o) => o.observation === Unavailable)',
    breaks: ['EPO-09'],
  },
  {
    name: 'the environment names the project root as the working directory',
    file: 'context/sources/environment.ts',
    find: 'load: async () => ({ workingDirectory: location, projectRoot,',
    replace: 'load: async () => ({ workingDirectory: projectRoot, projectRoot,',
    breaks: ['EPO-10'],
  },
  {
    name: 'the date is not a source of the baseline',
    file: 'context/location-contexts.ts',
    find: "      dateSource(clock, () => hostEnv().TZ || 'UTC'),\n",
    replace: '',
    breaks: ['EPO-10'],
  },
  {
    name: 'a moved session keeps its old epoch while the destination cannot load',
    file: 'session/session-store.ts',
    find: "{ type: 'session.moved', location, projectRoot }, { type: 'context.cleared' }",
    replace: "{ type: 'session.moved', location, projectRoot }, { type: 'context.replacement-requested' }",
    also: [
      {
        file: 'runner/context-boundary.ts',
        find: "    if (replacement.kind === 'replacement-blocked') {\n      throw new ContextBlocked('context-unavailable', `context unavailable: ${replacement.unavailable.join(', ')}`);\n    }",
        replace:
          "    if (replacement.kind === 'replacement-blocked') return new ContextBoundary(deps, session, sources, false);",
      },
    ],
    breaks: ['EPO-02', 'RUN-08'],
  },
];
