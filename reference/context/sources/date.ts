import type { ContextSource } from '../context-source.js';
import type { Clock } from '../../clock.js';

/**
 * The host-local calendar date, in the host's time zone: it changes at local midnight and at no
 * other time, so it never churns within one day.
 */
export function dateSource(clock: Clock, timeZone: () => string): ContextSource<string> {
  return {
    key: 'core/date',
    encode: (value) => value,
    decode: (json) => String(json),
    load: async () => localDate(clock.now(), timeZone()),
    baseline: (date) => `Today's date: ${date}`,
    update: (_previous, date) => `Today's date is now: ${date}`,
  };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Like `Date.prototype.toDateString`, in the given zone: "Thu Jan 15 2026". */
export function localDate(now: Date, timeZone: string): string {
  // UTC needs no zone rules: loading them for a first format costs a process more than its turn.
  if (timeZone === 'UTC') {
    const day = String(now.getUTCDate()).padStart(2, '0');
    return `${WEEKDAYS[now.getUTCDay()]} ${MONTHS[now.getUTCMonth()]} ${day} ${now.getUTCFullYear()}`;
  }
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.weekday} ${parts.month} ${parts.day} ${parts.year}`;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Building a format loads the zone's rules, which costs far more than formatting: one per zone. */
function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: '2-digit',
      year: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}
