import { createHash } from 'node:crypto';
import type { ContextSource, Json } from './context-source.js';

/**
 * The two System Context designs the runtime implements, one per rule profile:
 * - `core`: the snapshot keeps each source's codec-encoded value; the baseline is one joined text;
 *   a model switch keeps the epoch.
 * - `checkpoint` (the earlier Context Checkpoint design): the checkpoint keeps a hash of each
 *   component's rendered update text; the baseline keeps keyed parts, sent as separate system
 *   parts; built-in components come first, plugin components follow by key; a model switch starts
 *   a new epoch; instruction files are components of their own.
 */
export type ContextDesign = 'core' | 'checkpoint';

/** What the snapshot compares for a source: its encoded value, or the hash of its rendered state. */
export function comparable(design: ContextDesign, source: ContextSource, value: unknown): Json {
  if (design === 'core') return source.encode(value);
  return createHash('sha256').update(source.update(value, value)).digest('hex');
}
