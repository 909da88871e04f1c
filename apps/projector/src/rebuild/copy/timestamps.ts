import { zonedInstantMicros } from '@portal/read-model-portal-objects';

/**
 * A `timestamptz` as the fold orders it: the text PostgreSQL parses (kept, so the row gets exactly it)
 * and its instant in microseconds since the epoch (how PostgreSQL compares it in `least`, `min`, …).
 */
export interface Stamp {
  readonly text: string;
  readonly micros: number;
}

/**
 * The stamp of an ISO 8601 timestamp with a zone, or `null` when the text is one the fold does not read
 * exactly as PostgreSQL does (`zonedInstantMicros`): the caller then gives the history up to the SQL path.
 */
export function parseStamp(text: string): Stamp | null {
  const micros = zonedInstantMicros(text);
  return micros === null ? null : { text, micros };
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
