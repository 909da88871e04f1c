import { describe, expect, it } from 'vitest';
import { decodeTimeIdCursor, encodeCursor } from '../src/read-model/cursor.js';
import { HttpProblem } from '../src/http/problem.js';

describe('keyset cursors', () => {
  it('round-trips a (timestamp, id) key', () => {
    const key = { at: '2026-11-21T10:00:00.000Z', id: '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f' };
    expect(decodeTimeIdCursor(encodeCursor([key.at, key.id]))).toEqual(key);
  });

  it.each([
    ['not base64 JSON', 'bm90LWEtY3Vyc29y'],
    ['wrong arity', encodeCursor(['2026-11-21T10:00:00.000Z'])],
    ['bad timestamp', encodeCursor(['yesterday', '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f'])],
    ['a lenient date', encodeCursor(['May 1', '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f'])],
    ['an impossible day', encodeCursor(['2024-02-30T00:00:00.000Z', '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f'])],
    ['a bare number', encodeCursor(['1', '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f'])],
    [
      'a year PostgreSQL cannot store',
      encodeCursor(['-271821-04-20T00:00:00.000Z', '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f']),
    ],
    ['bad id', encodeCursor(['2026-11-21T10:00:00.000Z', "1'; DROP TABLE x; --"])],
  ])('refuses a cursor with %s as a 400', (_name, cursor) => {
    expect(() => decodeTimeIdCursor(cursor)).toThrow(HttpProblem);
    try {
      decodeTimeIdCursor(cursor);
    } catch (error) {
      expect((error as HttpProblem).status).toBe(400);
    }
  });
});
