import { MAX_CQL2_NUMBER_MAGNITUDE, MIN_CQL2_NUMBER_MAGNITUDE } from './limits.js';

// Instants as CQL2 writes them: UTC only, at most microseconds (what PostgreSQL keeps).
const timestampPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function validDay(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Microseconds since 1970-01-01T00:00:00Z, or undefined when the text is no valid CQL2 timestamp. */
export function timestampMicros(text: string): number | undefined {
  const match = timestampPattern.exec(text);
  if (!match) return undefined;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((group) => Number(match[group]));
  if (y === undefined || mo === undefined || d === undefined || h === undefined) return undefined;
  if (mi === undefined || s === undefined || !validDay(y, mo, d) || h > 23 || mi > 59 || s > 59) {
    return undefined;
  }
  const micros = Number((match[7] ?? '').padEnd(6, '0') || '0');
  // Date.UTC maps years 0-99 onto 1900-1999; setUTCFullYear does not.
  const date = new Date(Date.UTC(2000, 0, 1, h, mi, s));
  date.setUTCFullYear(y, mo - 1, d);
  return date.getTime() * 1000 + micros;
}

/** Microseconds of the start of the day (UTC), or undefined when the text is no valid CQL2 date. */
export function dateMicros(text: string): number | undefined {
  const match = datePattern.exec(text);
  if (!match) return undefined;
  const [y, mo, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!validDay(y, mo, d)) return undefined;
  const date = new Date(Date.UTC(2000, 0, 1));
  date.setUTCFullYear(y, mo - 1, d);
  return date.getTime() * 1000;
}

export const MICROS_PER_DAY = 86_400_000_000;

/** Numbers both sides agree on: finite, and neither so large nor so small a double loses them. */
export function isSupportedNumber(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const magnitude = Math.abs(value);
  return value === 0 || (magnitude >= MIN_CQL2_NUMBER_MAGNITUDE && magnitude <= MAX_CQL2_NUMBER_MAGNITUDE);
}
