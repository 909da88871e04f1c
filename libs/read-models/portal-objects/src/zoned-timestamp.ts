const isoPattern =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * The instant of an ISO 8601 timestamp with a zone, in microseconds since the epoch (how PostgreSQL
 * keeps a `timestamptz`), or `null` for a text JavaScript would not read exactly as PostgreSQL does: no
 * zone (PostgreSQL would take the session's), more than six fractional digits (it rounds them), a day
 * that does not exist (Date.UTC rolls 2025-02-30 over to March; PostgreSQL refuses it), or a year past
 * what a Date holds. Callers that cannot match PostgreSQL's reading give the work to SQL instead.
 */
export function zonedInstantMicros(text: string): number | null {
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
  if (check.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(second) > 59) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  return (ms - offsetMinutes * 60_000) * 1000 + Number(fraction.padEnd(6, '0'));
}
