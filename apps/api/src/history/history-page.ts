import type { RecordedEvent } from '@portal/domain';
import { decodeCursor, encodeCursor } from '../read-model/cursor.js';
import { HttpProblem } from '../http/problem.js';

export interface HistorySlice {
  readonly events: readonly RecordedEvent[];
  /** Cursor of the next page; `null` on the last one. */
  readonly next: string | null;
}

/**
 * The revision after which the page starts. Revisions never change once written (unlike a read model's
 * sequence after a rebuild), so a cursor stays good for as long as the stream exists.
 */
export function decodeHistoryCursor(cursor: string): number {
  const [revision] = decodeCursor(cursor, 1);
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) {
    throw new HttpProblem(400, 'cursor: not a cursor returned by this API', 'INVALID_CURSOR');
  }
  return revision;
}

/** One page of a stream, oldest first: up to `limit` events after the cursor's revision. */
export function historySlice(
  events: readonly RecordedEvent[],
  query: { readonly limit: number; readonly cursor?: string },
): HistorySlice {
  const after = query.cursor === undefined ? -1n : BigInt(decodeHistoryCursor(query.cursor));
  const following = events.filter((event) => event.revision > after);
  const page = following.slice(0, query.limit);
  const last = page.at(-1);
  const more = following.length > page.length && last !== undefined;
  return { events: page, next: more ? encodeCursor([Number(last.revision)]) : null };
}
