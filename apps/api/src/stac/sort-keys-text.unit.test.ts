import { describe, expect, it } from 'vitest';
import { sortKeysAsTextSql, sortKeyValues } from './sort-keys-text.js';

describe('sort keys as text', () => {
  it('reads the JSON text of the key array as PostgreSQL writes it, nulls and escapes included', () => {
    expect(sortKeyValues('["a\\"b",null,"2024-01-01T00:00:00.000000Z","ünï {x,y}"]')).toEqual([
      'a"b',
      null,
      '2024-01-01T00:00:00.000000Z',
      'ünï {x,y}',
    ]);
  });

  it('refuses anything but an array of texts and nulls', () => {
    expect(() => sortKeyValues('{"a":1}')).toThrow(/not an array of texts/);
    expect(() => sortKeyValues('[1]')).toThrow(/not an array of texts/);
  });

  it('asks PostgreSQL for the array as JSON text', () => {
    expect(sortKeysAsTextSql('ARRAY[o.id::text]::text[]')).toBe('to_json(ARRAY[o.id::text]::text[])::text');
  });
});
