import { isUuid } from '@portal/domain';
import { decodeCursor, encodeCursor } from '../read-model/cursor.js';
import { HttpProblem } from '../http/problem.js';

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
 * What a token continues: an item search (items newest first by their time) or a list of containers
 * (collections, children: oldest first by creation). A token of one is refused by the other.
 */
export type TokenKind = 'items' | 'containers';

/** Written by `to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`: microseconds survive the round trip. */
const KEY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const invalid = () => new HttpProblem(400, 'token: not a token returned by this API', 'INVALID_TOKEN');

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
  `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
