import { describe, expect, it } from 'vitest';
import { quoteIdentifier } from './sql-identifier.js';

describe('quoteIdentifier', () => {
  it('quotes plain lower-case names', () => {
    expect(quoteIdentifier('read')).toBe('"read"');
    expect(quoteIdentifier('read_rebuild_1732200000000')).toBe('"read_rebuild_1732200000000"');
  });

  it.each(['', 'Read', 'read-model', 'a"; DROP SCHEMA read; --', '1read', 'x'.repeat(64)])(
    'refuses %j, which could not be quoted safely',
    (name) => {
      expect(() => quoteIdentifier(name)).toThrow(/invalid SQL identifier/);
    },
  );
});
