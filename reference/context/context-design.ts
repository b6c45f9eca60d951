import { createHash } from 'node:crypto';
import type { ContextSource, Json } from './context-source.js';

/**
 * Where the two System Context designs the runtime implements differ, one per rule profile:
 * the core design, and the earlier Context Checkpoint design (`001`, LEG rules). Each question is
 * answered by the runtime's profile.
 */
export interface ContextDesign {
  /** LEG-01: the snapshot keeps a hash of each source's rendered update text, not its encoded value. */
  hashesSnapshot(): boolean;
  /** LEG-03: the baseline is sent as one system part per component, not as one joined text. */
  keepsBaselineParts(): boolean;
  /** LEG-04: built-in components come first in declaration order, plugin components follow by key. */
  ordersBuiltInsFirst(): boolean;
  /** LEG-07: each instruction file is a source of its own, not one aggregate. */
  separatesInstructionFiles(): boolean;
  /** LEG-06: instruction files found beside a file a tool read join the context. */
  discoversNestedInstructions(): boolean;
  /** LEG-02: a model or provider switch ends the epoch, as no provider cache outlives either. */
  endsEpochOnSwitch(): boolean;
}

/** What the snapshot compares for a source: its encoded value, or the hash of its rendered state. */
export function comparable(design: ContextDesign, source: ContextSource, value: unknown): Json {
  if (!design.hashesSnapshot()) return source.encode(value);
  return createHash('sha256').update(source.update(value, value)).digest('hex');
}
