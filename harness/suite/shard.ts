import { KitInputError } from '../input-error.js';

/** One of `total` parts of a run, counting from 1: `--shard 2/3`. */
export interface Shard {
  index: number;
  total: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [index, total] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  // Beyond a safe integer the parts would be rounded, so two jobs could run the same part.
  if (!match || !Number.isSafeInteger(total) || total < 1 || index < 1 || index > total) {
    throw new KitInputError('--shard', `"${text}" is not a shard like 2/3 (part 2 of 3)`);
  }
  return { index, total };
}

export function shardName(shard: Shard): string {
  return `${shard.index}/${shard.total}`;
}

/**
 * The stable IDs that fall in one shard: the IDs sorted, then dealt out in turn. The split
 * depends only on which IDs are selected, never on the order files are found or run in, so
 * every CI job computes the same partition, and the shards differ in size by one at most.
 */
export function idsInShard(ids: Iterable<string>, shard: Shard): Set<string> {
  const sorted = [...new Set(ids)].sort();
  return new Set(sorted.filter((_, i) => i % shard.total === shard.index - 1));
}
