import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../http/problem.js';
import { encodeCursor } from '../read-model/cursor.js';
import { afterKey, cursorOf, decodeKeysetCursor, keySelect, orderByClause, type Ordering } from './keyset.js';
import { QueryParams } from '@portal/read-model-core';

const id = '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f';
const byKind: Ordering = { sort: 'kind', order: 'asc' };
const newestFirst: Ordering = { sort: 'updatedAt', order: 'desc' };

function problemOf(run: () => unknown): HttpProblem {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
  throw new Error('expected an HttpProblem');
}

describe('keyset ordering', () => {
  it('orders by the sort columns and the id, all in one direction (one index scan)', () => {
    expect(orderByClause('o', byKind)).toBe('o.kind ASC, o.title ASC, o.id ASC');
    expect(orderByClause('o', newestFirst)).toBe('o.updated_at DESC, o.id DESC');
  });

  it('selects timestamps for the cursor with microseconds, not as a Date', () => {
    expect(keySelect('o', newestFirst)).toContain(`'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`);
    expect(keySelect('o', byKind)).toBe('o.kind AS key0, o.title AS key1');
  });

  it('continues after the cursor row with one row comparison, its values bound as parameters', () => {
    const params = new QueryParams();
    params.add('parent');
    const key = { values: ['2026-11-21T10:00:00.123456Z'], id };
    expect(afterKey('o', newestFirst, key, params)).toBe(
      '(o.updated_at, o.id) < ($2::timestamptz, $3::uuid)',
    );
    expect(params.values).toEqual(['parent', '2026-11-21T10:00:00.123456Z', id]);
  });
});

describe('keyset cursors', () => {
  it('round-trips the sort key of a row in the order it was issued for', () => {
    const cursor = cursorOf(byKind, { id, key0: 'catalog', key1: "O'Brien \u00e9" });
    expect(decodeKeysetCursor(cursor, byKind)).toEqual({ values: ['catalog', "O'Brien \u00e9"], id });
    const timed = cursorOf(newestFirst, { id, key0: '2026-11-21T10:00:00.000001Z' });
    expect(decodeKeysetCursor(timed, newestFirst).values).toEqual(['2026-11-21T10:00:00.000001Z']);
  });

  it('refuses a cursor of another sort or direction with a 400 that says which', () => {
    const cursor = cursorOf(byKind, { id, key0: 'catalog', key1: 'A' });
    const problem = problemOf(() => decodeKeysetCursor(cursor, { sort: 'kind', order: 'desc' }));
    expect(problem).toMatchObject({ status: 400, code: 'CURSOR_ORDER_MISMATCH' });
    expect(problem.message).toBe('cursor: continues sort=kind&order=asc, not sort=kind&order=desc');
    expect(problemOf(() => decodeKeysetCursor(cursor, { sort: 'title', order: 'asc' })).status).toBe(400);
  });

  const byTitle: Ordering = { sort: 'title', order: 'asc' };
  it.each([
    ['not base64 JSON', 'bm90LWEtY3Vyc29y', byTitle],
    ['an object', Buffer.from('{}').toString('base64url'), byTitle],
    ['an unknown sort', encodeCursor(['size', 'asc', 'x', id]), byTitle],
    ['an unknown direction', encodeCursor(['title', 'up', 'x', id]), byTitle],
    ['a missing value', encodeCursor(['kind', 'asc', 'catalog', id]), byKind],
    ['a bad id', encodeCursor(['title', 'asc', 'x', "1'; DROP TABLE x; --"]), byTitle],
    ['a number for a title', encodeCursor(['title', 'asc', 42, id]), byTitle],
    ['NUL in a title', encodeCursor(['title', 'asc', 'a\u0000b', id]), byTitle],
    [
      'a millisecond timestamp',
      encodeCursor(['updatedAt', 'desc', '2026-11-21T10:00:00.000Z', id]),
      newestFirst,
    ],
    [
      'an impossible timestamp',
      encodeCursor(['updatedAt', 'desc', '2026-13-45T10:00:00.000000Z', id]),
      newestFirst,
    ],
  ])('refuses a cursor with %s as a 400', (_name, cursor, ordering) => {
    expect(problemOf(() => decodeKeysetCursor(cursor, ordering))).toMatchObject({
      status: 400,
      code: 'INVALID_CURSOR',
    });
  });
});
