import type { Plugin } from '@cucumber/cucumber/api';
import { idsInShard, type Shard } from './shard.js';

/**
 * A Cucumber plugin that keeps the scenarios of one shard. It filters after the tag selection,
 * so shards split what was selected; the scenarios of one `@id:` (an outline's rows) stay together.
 */
const shardPlugin: Plugin<{ shard?: Shard }> = {
  type: 'plugin',
  optionsKey: 'kitShard',
  coordinator({ transform, options }) {
    const { shard } = options;
    if (!shard) return;
    transform('pickles:filter', (pickles) => {
      const idOf = ({ pickle }: (typeof pickles)[number]) =>
        pickle.tags.find((tag) => tag.name.startsWith('@id:'))?.name.slice(4) ??
        `${pickle.uri}:${pickle.location?.line}`;
      const kept = idsInShard(pickles.map(idOf), shard);
      return pickles.filter((pickle) => kept.has(idOf(pickle)));
    });
  },
};

export default shardPlugin;
