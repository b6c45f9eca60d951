import { escapeHtml } from './escape.js';
import type { Outcome } from './outcome.js';

/**
 * How each outcome looks on the HTML pages (the field page and `kit run --html`), defined once so
 * both read alike, in the order they are shown: verdicts first. The colours are Okabe and Ito's, which stay apart under the common colour-vision
 * deficiencies; failed (dark vermillion) and not implemented (light yellow) differ in lightness as
 * well, so they stay apart in greyscale too. Each outcome has a shape of its own beside its words:
 * none is told by colour alone.
 */
export const OUTCOME_LOOKS: Record<Outcome, { colour: string; shape: string; meaning: string }> = {
  passed: { colour: '#009E73', shape: '✓', meaning: 'every check ran on what the runtime did, and held' },
  failed: { colour: '#D55E00', shape: '✗', meaning: 'a check failed: the runtime deviates from the rule' },
  'not implemented': {
    colour: '#F0E442',
    shape: '⊘',
    meaning: 'the runtime answered unsupported to a command its profile requires',
  },
  errored: {
    colour: '#CC79A7',
    shape: '!',
    meaning: 'the runtime or its adapter crashed or broke the protocol: no verdict',
  },
  'not judged': { colour: '#56B4E9', shape: '?', meaning: "it ran, but the rule's check never saw real data" },
  'not applicable': {
    colour: '#BBBBBB',
    shape: '–',
    meaning: 'needs a profile, capability or reading the runtime does not declare',
  },
};

export const SHOWN_ORDER = Object.keys(OUTCOME_LOOKS) as Outcome[];

export function outcomeClass(outcome: Outcome): string {
  return `o-${outcome.replace(/\s+/g, '-')}`;
}

/** The outcome's shape on its colour; the words beside it are the caller's. */
export function outcomeShape(outcome: Outcome): string {
  return `<span class="shape ${outcomeClass(outcome)}" aria-hidden="true">${OUTCOME_LOOKS[outcome].shape}</span>`;
}

/**
 * The style rules: `.o-<outcome>` sets the colour; `.shape` shows it full, `.tint` as a cell's
 * lighter background (full colours behind every cell of a long table would drown the words).
 */
export function outcomeStyles(): string {
  // Outcomes that give no verdict and need no action are tinted lighter: they should not outshine those that do.
  const quiet: readonly Outcome[] = ['not judged', 'not applicable'];
  const colours = SHOWN_ORDER.map(
    (o) =>
      `.${outcomeClass(o)} { --outcome: ${OUTCOME_LOOKS[o].colour}; --tint: ${tint(OUTCOME_LOOKS[o].colour, quiet.includes(o) ? 0.2 : 0.4)}; }`,
  );
  return [
    ...colours,
    '.shape { display: inline-block; min-width: 1.3em; margin-right: 0.35em; border-radius: 3px; text-align: center; font-weight: bold; color: #000; background: var(--outcome); }',
    '.tint { background: var(--tint); }',
  ].join('\n');
}

/** Every outcome with its shape, colour and meaning; `extra` items follow. */
export function outcomeLegend(extra: readonly string[] = []): string {
  const items = SHOWN_ORDER.map(
    (o) => `<li>${outcomeShape(o)}<b>${escapeHtml(o)}</b>: ${escapeHtml(OUTCOME_LOOKS[o].meaning)}</li>`,
  );
  return `<ul class="legend">${[...items, ...extra].join('')}</ul>`;
}

/** The colour mixed with white, `share` of it. */
function tint(colour: string, share: number): string {
  const channel = (i: number) => Math.round(255 - (255 - Number.parseInt(colour.slice(i, i + 2), 16)) * share);
  return `#${[1, 3, 5].map((i) => channel(i).toString(16).padStart(2, '0')).join('')}`;
}
