import type { Plugin } from '@cucumber/cucumber/api';
import { idsInShard, type Shard } from './shard.js';
import { firstCells, selects, stableIdOf } from './scenario-id.js';

/**
 * A Cucumber plugin that keeps the scenarios the kit selects by stable ID (`--rerun`, a replay:
 * a row ID picks one example row, which no tag expression can) and those of one shard. It filters
 * after the tag selection, so shards split what was selected; an outline's rows stay together.
 */
const selectionPlugin: Plugin<{ shard?: Shard; ids?: string[] }> = {
  type: 'plugin',
  optionsKey: 'kitSelection',
  coordinator({ transform, options }) {
    const { shard } = options;
    const ids = options.ids && new Set(options.ids);
    if (!shard && !ids) return;
    transform('pickles:filter', (pickles) => {
      const cells = new Map<object, Map<string, string>>();
      const idOf = ({ pickle, gherkinDocument }: (typeof pickles)[number]) => {
        if (!cells.has(gherkinDocument)) cells.set(gherkinDocument, firstCells(gherkinDocument));
        return stableIdOf(pickle, (row) => cells.get(gherkinDocument)!.get(row));
      };
      const chosen = ids ? pickles.filter((pickle) => selects(ids, idOf(pickle))) : pickles;
      if (!shard) return chosen;
      const shardId = (pickle: (typeof pickles)[number]) => idOf(pickle).outline ?? idOf(pickle).id;
      const kept = idsInShard(chosen.map(shardId), shard);
      return chosen.filter((pickle) => kept.has(shardId(pickle)));
    });
  },
};

export default selectionPlugin;
