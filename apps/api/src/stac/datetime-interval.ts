import { badParameter } from './stac-problem.js';

/** An inclusive time interval in UTC ISO form; `null` is an open end. An instant has start = end. */
export interface TimeInterval {
  readonly start: string | null;
  readonly end: string | null;
}

/** RFC 3339 date-time with a time zone (`Z` or an offset), as STAC requires; `t`/`z` allowed too. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const OPEN = new Set(['..', '']);

const invalid = (message: string) => badParameter('datetime', message, 'INVALID_DATETIME');

/** An RFC 3339 instant in UTC ISO form; `parameter` names it in the 400 of anything else. */
export function parseInstant(text: string, parameter: string, code: string): string {
  try {
    return instant(text);
  } catch {
    throw badParameter(
      parameter,
      `"${text}" is not an RFC 3339 date-time with a time zone that exists, e.g. 2024-01-31T12:00:00Z`,
      code,
    );
  }
}

function instant(text: string): string {
  if (!RFC3339.test(text)) {
    throw invalid(`"${text}" is not an RFC 3339 date-time with a time zone, e.g. 2024-01-31T12:00:00Z`);
  }
  const time = Date.parse(text.toUpperCase());
  // `Date.parse` rolls 2024-02-30 over to March; a date that does not exist is an error, not another day.
  const [, month, day] = /^\d{4}-(\d{2})-(\d{2})/.exec(text) ?? [];
  const parsed = new Date(time);
  if (Number.isNaN(time) || !dayExists(text.slice(0, 10), Number(month), Number(day))) {
    throw invalid(`"${text}" is not a date-time that exists`);
  }
  if (parsed.getUTCFullYear() < 1 || parsed.getUTCFullYear() > 9999) {
    throw invalid(`"${text}" is outside the years 0001 to 9999`);
  }
  return parsed.toISOString();
}

function dayExists(date: string, month: number, day: number): boolean {
  const probe = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(probe.getTime()) && probe.getUTCMonth() + 1 === month && probe.getUTCDate() === day;
}

/**
 * STAC's `datetime`: an instant, `start/end`, `../end` or `start/..` (an empty side is open too, as
 * OGC API Features allows). Both sides open, or a start after the end, is a 400.
 */
export function parseDatetime(text: string): TimeInterval {
  const parts = text.split('/');
  if (parts.length === 1) {
    const at = instant(text.trim());
    return { start: at, end: at };
  }
  if (parts.length !== 2) throw invalid(`"${text}" is neither an instant nor one interval start/end`);
  const [startText = '', endText = ''] = parts.map((part) => part.trim());
  const start = OPEN.has(startText) ? null : instant(startText);
  const end = OPEN.has(endText) ? null : instant(endText);
  if (start === null && end === null)
    throw invalid('an interval must have at least one end: "../.." is not one');
  if (start !== null && end !== null && start > end) {
    throw invalid(`the start ${start} is after the end ${end}`);
  }
  return { start, end };
}
