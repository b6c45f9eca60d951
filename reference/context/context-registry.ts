import { combine, ContextCompositionError, type ContextSource } from './context-source.js';
import type { ContextDesign } from './context-design.js';

/** Contribution keys of the runtime's own components. */
const BUILT_IN = 'core/';

/** Contributes an ordered group of sources; evaluated at every Safe Provider-Turn Boundary. */
export type ContextProducer = () => ContextSource[] | Promise<ContextSource[]>;

/**
 * The System Context Registry of one location: scoped contributions under stable contribution
 * keys. Producers run concurrently and combine in contribution-key order, so the composed context
 * does not depend on registration order or on which producer finishes first.
 */
export class ContextRegistry {
  private readonly contributions = new Map<string, ContextProducer>();

  register(contributionKey: string, producer: ContextProducer): void {
    if (this.contributions.has(contributionKey)) {
      throw new ContextCompositionError(`duplicate context contribution key: ${contributionKey}`);
    }
    this.contributions.set(contributionKey, producer);
  }

  /** Its sources leave the context at the next boundary, with their stored removal text. */
  remove(contributionKey: string): boolean {
    return this.contributions.delete(contributionKey);
  }

  async compose(design: ContextDesign): Promise<ContextSource[]> {
    if (design.ordersBuiltInsFirst()) return this.composeBuiltInsFirst();
    const ordered = [...this.contributions.keys()].sort();
    const produced = await Promise.all(ordered.map((key) => this.contributions.get(key)!()));
    return combine(produced.flat());
  }

  /** The checkpoint design: built-in components in declaration order, then plugin components by key. */
  private async composeBuiltInsFirst(): Promise<ContextSource[]> {
    const entries = [...this.contributions.entries()];
    const produced = await Promise.all(
      entries.map(async ([key, producer]) => ({ builtIn: key.startsWith(BUILT_IN), sources: await producer() })),
    );
    const builtIn = produced.filter((p) => p.builtIn).flatMap((p) => p.sources);
    const plugin = produced
      .filter((p) => !p.builtIn)
      .flatMap((p) => p.sources)
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return combine([...builtIn, ...plugin]);
  }
}
