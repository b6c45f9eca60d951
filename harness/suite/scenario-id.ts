import type { GherkinDocument, Pickle } from '@cucumber/messages';

/**
 * Stable scenario IDs. A scenario's ID is its `@id:` tag. Each Examples row of a Scenario Outline
 * has its own: the outline's ID, a slash and the row's first cell as a slug
 * (`rty-retry-client-error-1/401`), so it stays when rows are added or reordered. The outline's
 * ID names all its rows at once (in a baseline, `--rerun` or a replay); a row ID names one.
 */

/** The row part of an example row's ID: its first cell, lower case, words joined by dashes. */
export function rowKey(firstCell: string): string {
  return firstCell
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function rowId(outline: string, firstCell: string): string {
  return `${outline}/${rowKey(firstCell)}`;
}

/** The `@id:` tag's value, on a scenario or on every row of an outline. */
export function taggedId(tags: readonly string[]): string | undefined {
  return tags.find((tag) => tag.startsWith('@id:'))?.slice(4);
}

/** A pickle's stable ID, and for an example row the ID of its outline. */
export interface StableId {
  id: string;
  outline?: string;
}

/** The stable ID of a pickle; `firstCellOf` gives an example row's first cell from its AST node ID. */
export function stableIdOf(pickle: Pickle, firstCellOf: (rowNodeId: string) => string | undefined): StableId {
  const tagged = taggedId(pickle.tags.map((tag) => tag.name)) ?? pickle.id;
  const row = pickle.astNodeIds.length > 1 ? firstCellOf(pickle.astNodeIds.at(-1)!) : undefined;
  return row === undefined ? { id: tagged } : { id: rowId(tagged, row), outline: tagged };
}

/** The first cell of every example row of a document, by the row's AST node ID. */
export function firstCells(document: GherkinDocument): Map<string, string> {
  const cells = new Map<string, string>();
  const children = document.feature?.children ?? [];
  const scenarios = children.flatMap((child) => [
    ...(child.scenario ? [child.scenario] : []),
    ...(child.rule?.children ?? []).flatMap((inner) => (inner.scenario ? [inner.scenario] : [])),
  ]);
  for (const scenario of scenarios)
    for (const examples of scenario.examples)
      for (const row of examples.tableBody) cells.set(row.id, row.cells[0]?.value ?? '');
  return cells;
}

/** A selection of stable IDs: a scenario's, an outline's (all its rows) or one row's. */
export function selects(ids: ReadonlySet<string>, scenario: StableId): boolean {
  return ids.has(scenario.id) || (scenario.outline !== undefined && ids.has(scenario.outline));
}
