import { isUuid } from '@portal/domain';
import { HttpProblem } from '../http/problem.js';

/**
 * Keyset cursors are opaque to clients: base64url of the sort key of the last row returned.
 * A tampered or foreign cursor answers 400 rather than a wrong page.
 */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string, arity: number): (string | number)[] {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === arity &&
      key.every((part) => typeof part === 'string' || typeof part === 'number')
    ) {
      return key;
    }
  } catch {
    // fall through to the 400 below
  }
  throw new HttpProblem(400, 'cursor: not a cursor returned by this API', 'INVALID_CURSOR');
}

/** Only the exact form `encodeCursor` writes: `Date.parse` also takes "May 1" and "2024-02-30". */
function isCanonicalTimestamp(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text)) return false;
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text;
}

/** A cursor over (timestamp, id), validated so no malformed value ever reaches SQL. */
export function decodeTimeIdCursor(cursor: string): { readonly at: string; readonly id: string } {
  const [at, id] = decodeCursor(cursor, 2);
  if (typeof at !== 'string' || !isCanonicalTimestamp(at) || !isUuid(id)) {
    throw new HttpProblem(400, 'cursor: not a cursor returned by this API', 'INVALID_CURSOR');
  }
  return { at, id };
}
