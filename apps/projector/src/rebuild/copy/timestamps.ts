/**
 * A `timestamptz` as the fold orders it: the text PostgreSQL parses (kept, so the row gets exactly it)
 * and its instant in microseconds since the epoch (how PostgreSQL compares it in `least`, `min`, …).
 */
export interface Stamp {
  readonly text: string;
  readonly micros: number;
}

const isoPattern =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * The instant of an ISO 8601 timestamp with a zone, or `null` when the text is one the fold does not
 * read exactly as PostgreSQL does (no zone: PostgreSQL would take the session's; more than six
 * fractional digits: PostgreSQL rounds them): the caller then gives the history up to the SQL path.
 */
export function parseStamp(text: string): Stamp | null {
  const match = isoPattern.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  const ms = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  if (!Number.isFinite(ms) || Math.abs(ms) > 9e12) return null;
  const check = new Date(ms);
  // Date.UTC rolls 2025-02-30 over to March; PostgreSQL refuses it, so the SQL path would have failed.
  if (check.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(second) > 59) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  const micros = (ms - offsetMinutes * 60_000) * 1000 + Number(fraction.padEnd(6, '0'));
  return { text, micros };
}

/** `least(a, b)` of PostgreSQL: NULLs ignored. */
export function earlier(a: Stamp | null, b: Stamp | null): Stamp | null {
  if (a === null) return b;
  if (b === null) return a;
  return b.micros < a.micros ? b : a;
}

/** `greatest(a, b)` of PostgreSQL: NULLs ignored. */
export function later(a: Stamp | null, b: Stamp | null): Stamp | null {
  if (a === null) return b;
  if (b === null) return a;
  return b.micros > a.micros ? b : a;
}
