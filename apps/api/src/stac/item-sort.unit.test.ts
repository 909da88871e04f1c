import { describe, expect, it } from 'vitest';
import { QueryParams } from '@portal/read-model-core';
import { afterSql, itemSort, orderBySql } from './item-sort.js';
import { decodeItemToken, encodeItemToken } from './search-token.js';
import { parseSortbyBody, parseSortbyText } from './sort-request.js';

describe('sortby', () => {
  it('reads the GET form: signs, no sign ascending, a space (an unescaped +) ascending', () => {
    expect(parseSortbyText('-datetime, title,+id, properties.cloud')).toEqual([
      { field: 'datetime', direction: 'desc' },
      { field: 'title', direction: 'asc' },
      { field: 'id', direction: 'asc' },
      { field: 'properties.cloud', direction: 'asc' },
    ]);
    expect(parseSortbyBody([{ field: 'title', direction: 'desc' }])).toEqual([
      { field: 'title', direction: 'desc' },
    ]);
  });

  it('appends the id in the first key direction and drops keys after an id', () => {
    expect(itemSort(parseSortbyText('-properties.datetime,title')).signature).toBe('-datetime,+title,-id');
    expect(itemSort(parseSortbyText('id,title')).signature).toBe('+id');
    expect(itemSort(null).signature).toBe('-datetime,-id');
  });

  it('knows which time index orders a sort', () => {
    expect(itemSort(parseSortbyText('start_datetime')).leadingTime).toBe('start');
    expect(itemSort(parseSortbyText('-end_datetime')).leadingTime).toBe('end');
    expect(itemSort(parseSortbyText('title,datetime')).leadingTime).toBeNull();
  });

  it('continues one-way keys with a row comparison (one index range), others key by key', () => {
    const oneWay = itemSort(parseSortbyText('-datetime'));
    expect(afterSql(oneWay, ['2024-01-01T00:00:00.000000Z', 'a'], new QueryParams())).toBe(
      '(COALESCE(o.start_datetime, o.datetime, o.created_at), o.id) < ($1::timestamptz, $2::uuid)',
    );
    const mixed = itemSort(parseSortbyText('cloud,-title'));
    const params = new QueryParams();
    const sql = afterSql(mixed, [null, 'x', 'id'], params);
    // After a NULL ascending (NULL is last) only other NULLs follow, then by title descending.
    expect(sql).toContain('IS NULL AND');
    expect(sql).not.toContain('> NULL');
    expect(params.values).toEqual(['x', 'id']);
  });

  it('orders a nullable key by whether it is NULL first, in the same direction', () => {
    const sql = orderBySql(itemSort(parseSortbyText('cloud,-title')));
    expect(sql).toMatch(/^\(CASE .* END IS NULL\) ASC, CASE .* END ASC, o\.title DESC, o\.id ASC$/);
  });

  it('continues a one-way sort on a nullable key with one row comparison that keeps the NULLs', () => {
    const ascending = afterSql(itemSort(parseSortbyText('cloud')), ['3', 'id'], new QueryParams());
    expect(ascending).toMatch(
      /^\(\(CASE .* END IS NULL\), CASE .* END, o\.id\) > \(FALSE, \$1::jsonb, \$2::uuid\)$/,
    );
    const descending = afterSql(itemSort(parseSortbyText('-cloud')), ['3', 'id'], new QueryParams());
    expect(descending).toMatch(/ < \(FALSE, \$1::jsonb, \$2::uuid\)$/);
    // After a NULL, the value is left out of the comparison (a NULL would make it unknown) and,
    // ascending, only NULLs follow.
    const params = new QueryParams();
    const afterNull = afterSql(itemSort(parseSortbyText('cloud')), [null, 'id'], params);
    expect(afterNull).toMatch(
      /^CASE .* END IS NULL AND \(\(CASE .* END IS NULL\), o\.id\) > \(TRUE, \$1::uuid\)$/,
    );
    expect(params.values).toEqual(['id']);
  });

  it('bounds the first key of a mixed sort so an index starts at the previous key', () => {
    const ascending = afterSql(
      itemSort(parseSortbyText('cloud,-title')),
      ['3', 'x', 'id'],
      new QueryParams(),
    );
    expect(ascending).toMatch(/^\(\(CASE .* END IS NULL\), CASE .* END\) >= \(FALSE, \$1::jsonb\) AND \(/);
    const descending = afterSql(
      itemSort(parseSortbyText('-cloud,title')),
      ['3', 'x', 'id'],
      new QueryParams(),
    );
    expect(descending).toMatch(/^CASE .* END <= \$1::jsonb AND \(/);
  });

  it('a token round-trips under its sort and is refused under another', () => {
    const sort = itemSort(parseSortbyText('cloud'));
    const token = encodeItemToken(sort, ['3', '00000000-0000-4000-8000-000000000001']);
    expect(decodeItemToken(sort, token)).toEqual({
      keys: ['3', '00000000-0000-4000-8000-000000000001'],
      direction: 'next',
    });
    const prev = encodeItemToken(sort, ['3', '00000000-0000-4000-8000-000000000001'], 'prev');
    expect(decodeItemToken(sort, prev).direction).toBe('prev');
    expect(() => decodeItemToken(itemSort(parseSortbyText('-cloud')), token)).toThrow(/another sortby/);
    const badJson = encodeItemToken(sort, ['{"a":', '00000000-0000-4000-8000-000000000001']);
    expect(() => decodeItemToken(sort, badJson)).toThrow(/token/);
    const nul = encodeItemToken(sort, ['"\\u0000"', '00000000-0000-4000-8000-000000000001']);
    expect(() => decodeItemToken(sort, nul)).toThrow(/token/);
    const surrogate = encodeItemToken(sort, ['"\\ud800"', '00000000-0000-4000-8000-000000000001']);
    expect(() => decodeItemToken(sort, surrogate)).toThrow(/token/);
  });
});
