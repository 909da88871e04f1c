import { isUuid } from '@portal/domain';
import { decodeCursor, encodeCursor } from '../read-model/cursor.js';
import { HttpProblem } from '../http/problem.js';
import type { ItemSort, SortKey } from './item-sort.js';

/**
 * Where a page ends: the last row's key time (microseconds, UTC, as PostgreSQL keeps it) and its id. The
 * next page is the rows strictly after that pair in the page's order: one index range (docs/stac.md).
 * Opaque to clients: base64url, as every cursor of the API.
 */
export interface PageKey {
  readonly time: string;
  readonly id: string;
}

/**
 * What a token continues: a list of collections or children (`containers`), or the items directly under
 * a container as a browse page links them (`direct-items`); both oldest first by creation.
 */
export type TokenKind = 'containers' | 'direct-items';

/** Written by `to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`: microseconds survive the round trip. */
const KEY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const invalid = (why = 'not a token returned by this API') =>
  new HttpProblem(400, `token: ${why}`, 'INVALID_TOKEN');

export function encodeToken(kind: TokenKind, key: PageKey): string {
  return encodeCursor([kind, key.time, key.id]);
}

export function decodeToken(kind: TokenKind, token: string): PageKey {
  let parts: (string | number)[];
  try {
    parts = decodeCursor(token, 3);
  } catch {
    throw invalid();
  }
  const [issuedFor, time, id] = parts;
  if (issuedFor !== kind || typeof time !== 'string' || !KEY_TIME.test(time)) throw invalid();
  if (Number.isNaN(Date.parse(time)) || !isUuid(id)) throw invalid();
  return { time, id };
}

/** The SQL that writes a key time as `decodeToken` reads it. */
export const keyTimeSql = (expression: string) =>
  `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Where an item page starts: strictly after `keys` in the sort's order (a `next` link: the previous
 * page's last item) or strictly before them (a `prev` link: the following page's first item).
 */
export interface ItemCursor {
  readonly keys: readonly (string | null)[];
  readonly direction: 'next' | 'prev';
}

/**
 * A sorted page's token: the list it continues (`items`, or a container list), the sort it was issued
 * under (its signature), a row's value of each sort key, as text (NULL for a key the row has no value of),
 * and `prev` for a page before that row (a `next` token has no fourth element, as before prev links
 * existed). Base64url JSON, opaque to clients.
 */
export function encodeKeysetToken(
  list: string,
  sort: ItemSort,
  values: readonly (string | null)[],
  direction: ItemCursor['direction'] = 'next',
): string {
  const parts =
    direction === 'next' ? [list, sort.signature, values] : [list, sort.signature, values, 'prev'];
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** An item page's token (`encodeKeysetToken` of the `items` list). */
export function encodeItemToken(
  sort: ItemSort,
  values: readonly (string | null)[],
  direction: ItemCursor['direction'] = 'next',
): string {
  return encodeKeysetToken('items', sort, values, direction);
}

/** Longest key value a token carries (titles and property values are far shorter). */
const MAX_KEY_TEXT = 100_000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A JSON scalar that PostgreSQL's jsonb reads as what the sort produced: a string, number or boolean. */
function isJsonScalar(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof value === 'number') return Number.isFinite(value);
  // PostgreSQL refuses a NUL and a lone surrogate in a jsonb string (a 500 if they reached it).
  if (typeof value === 'string') return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
  return typeof value === 'boolean';
}

/** Whether one key value is of the form the search wrote, so nothing malformed ever reaches SQL. */
export function validValue(key: SortKey, value: unknown): boolean {
  if (value === null) return key.nullable;
  if (typeof value !== 'string' || value.length > MAX_KEY_TEXT || value.includes('\u0000')) return false;
  switch (key.type) {
    case 'timestamptz':
      return KEY_TIME.test(value) && !Number.isNaN(Date.parse(value));
    case 'uuid':
      return isUuid(value);
    case 'jsonb':
      return isJsonScalar(value);
    case 'text':
      return true;
  }
}

/**
 * The key values of a sorted page's token, checked against the request's list and sort: a token of
 * another list, of another sort (its keys would continue a different order) or tampered with answers 400.
 */
export function decodeKeysetToken(list: string, sort: ItemSort, token: string): ItemCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(decoded) || decoded[0] !== list) throw invalid();
  const prev = decoded.length === 4 && decoded[3] === 'prev';
  if (decoded.length !== 3 && !prev) throw invalid();
  const [, signature, values] = decoded as [unknown, unknown, unknown];
  if (signature !== sort.signature) {
    throw invalid(`issued for another sortby (${String(signature)}), not ${sort.signature}`);
  }
  if (!Array.isArray(values) || values.length !== sort.keys.length) throw invalid();
  if (!sort.keys.every((key, index) => validValue(key, values[index]))) throw invalid();
  return { keys: values as (string | null)[], direction: prev ? 'prev' : 'next' };
}

/** An item page's token read back (`decodeKeysetToken` of the `items` list). */
export function decodeItemToken(sort: ItemSort, token: string): ItemCursor {
  return decodeKeysetToken('items', sort, token);
}
