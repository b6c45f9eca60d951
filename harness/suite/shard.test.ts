import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idsInShard, parseShard } from './shard.js';

const ids = ['run-3', 'inb-1', 'inb-2', 'run-1', 'inb-3', 'run-2', 'inb-1'];

test('the shards of a selection cover it exactly once, and differ in size by one at most', () => {
  const shards = [1, 2, 3].map((index) => idsInShard(ids, { index, total: 3 }));
  const all = shards.flatMap((shard) => [...shard]).sort();
  assert.deepEqual(all, [...new Set(ids)].sort());
  assert.deepEqual(
    shards.map((shard) => shard.size),
    [2, 2, 2],
  );
});

test('a shard depends on the IDs, not on their order', () => {
  assert.deepEqual(idsInShard([...ids].reverse(), { index: 2, total: 3 }), idsInShard(ids, { index: 2, total: 3 }));
});

test('--shard takes k/n with 1 <= k <= n', () => {
  assert.deepEqual(parseShard('2/3'), { index: 2, total: 3 });
  for (const bad of ['0/3', '4/3', '2', 'a/b', '1/0', '99999999999999999999/99999999999999999999'])
    assert.throws(() => parseShard(bad), /--shard: ".*" is not a shard like 2\/3/);
});
