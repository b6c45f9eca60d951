import { expect } from 'chai';
import { orEmpty } from '../../harness/report/failure-words.js';

/** `text` as a regular expression that matches exactly it. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` holds every one of `parts`, in that order. */
export function inOrder(text: string, parts: string[]): boolean {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** Expects `text` to hold every one of `parts`, in that order, naming the first one missing. */
export function expectInOrder(text: string, parts: string[]): void {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    expect(at >= 0, `the text holds "${part}" after position ${from}\nthe text:\n${orEmpty(text)}`).to.equal(true);
    from = at + part.length;
  }
}

/** The ways a runtime may write a calendar date (ISO, toDateString, long and short English). */
export function dateRenderings(iso: string): string[] {
  const date = new Date(`${iso}T12:00:00Z`);
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', ...options }).format(date);
  const weekday = format({ weekday: 'short' });
  const month = format({ month: 'short' });
  const day = format({ day: '2-digit' });
  return [
    iso,
    `${weekday} ${month} ${day} ${date.getUTCFullYear()}`,
    format({ dateStyle: 'long' }),
    format({ dateStyle: 'medium' }),
  ];
}

/** A date, or a date and time, alone: ISO (`2026-01-15`, `2026-01-15T09:00:00.000+00:00`) or one of dateRenderings' forms. */
const DATE_ALONE =
  /^(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4}|[A-Z][a-z]+ \d{1,2}, \d{4})$/;

/** `text` without its paragraphs that hold a date alone (a date stamp a runtime puts before a turn). */
export function withoutDateParagraphs(text: string): string {
  const paragraphs = text.split(/\n{2,}/);
  const kept = paragraphs.filter((paragraph) => !DATE_ALONE.test(paragraph.replace(/<\/?[\w-]+>/g, '').trim()));
  return kept.length === paragraphs.length ? text : kept.join('\n\n');
}
