import type { Mutant } from './mutant.js';

export const pruning: Mutant[] = [
  {
    name: 'tokens are estimated at three characters each',
    profile: 'sol',
    file: 'compaction/pruning.ts',
    find: 'return Math.ceil(text.length / 4);',
    replace: 'return Math.ceil(text.length / 3);',
    breaks: ['PRU-01'],
  },
  {
    name: 'cache reads do not count as used tokens',
    profile: 'sol',
    file: 'compaction/token-usage.ts',
    find: 'usage.usage.input + usage.usage.cacheRead + usage.usage.output',
    replace: 'usage.usage.input + usage.usage.output',
    breaks: ['PRU-02'],
  },
  {
    name: 'pruning ignores its minimum',
    profile: 'sol',
    file: 'compaction/pruning.ts',
    find: 'return freed > PRUNE_MINIMUM ? pruned : [];',
    replace: 'return freed > 0 ? pruned : [];',
    breaks: ['PRU-03'],
  },
  {
    name: 'pruning protects only the last user turn',
    profile: 'sol',
    file: 'compaction/pruning.ts',
    find: 'if (users < 2 ||',
    replace: 'if (users < 1 ||',
    breaks: ['PRU-03'],
  },
  {
    name: 'pruning drops the durable output',
    profile: 'sol',
    file: 'history/history-projection.ts',
    find: 'updateBody(db, id, (body) => { body.pruned = true; });',
    replace: "updateBody(db, id, (body) => { body.pruned = true; body.output = ''; });",
    breaks: ['PRU-04'],
  },
  {
    name: 'usage reports add up',
    profile: 'sol',
    file: 'compaction/token-usage.ts',
    find: "  const usage = since.findLast((m) => m.role === 'assistant' && m.usage !== undefined);\n",
    replace:
      "  const usage = since.filter((m) => m.role === 'assistant' && m.usage !== undefined).reduce((sum, m) => (m.role === 'assistant' && m.usage && sum?.role === 'assistant' && sum.usage ? { ...m, usage: { input: sum.usage.input + m.usage.input, cacheRead: sum.usage.cacheRead + m.usage.cacheRead, output: sum.usage.output + m.usage.output } } : m), undefined as SessionMessage | undefined);\n",
    breaks: ['PRU-05'],
  },
  {
    name: 'the model sees history from the oldest compaction',
    file: 'history/model-history.ts',
    find: "const checkpoint = messages.findLast((m): m is CompactionMessage => m.role === 'compaction');",
    replace: "const checkpoint = messages.find((m): m is CompactionMessage => m.role === 'compaction');",
    breaks: ['PRU-06'],
  },
];
