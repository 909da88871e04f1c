import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_WRITE_CHARACTERS, writesOf } from './send-json.js';

describe('writesOf', () => {
  it('joins small parts into one write', () => {
    expect(writesOf(['{"a":', '1', '}'])).toEqual(['{"a":1}']);
  });

  it('starts a new write before a part that would pass the limit', () => {
    const part = 'x'.repeat(MAX_WRITE_CHARACTERS / 2);
    expect(writesOf([part, part, 'y'])).toEqual([part + part, 'y']);
    expect(writesOf([part, `${part}z`])).toEqual([part, `${part}z`]);
  });

  it('keeps a part longer than the limit whole, as a write of its own', () => {
    const long = 'é'.repeat(MAX_WRITE_CHARACTERS + 1);
    expect(writesOf(['[', long, ']'])).toEqual(['[', long, ']']);
  });

  it('has no writes for no parts', () => {
    expect(writesOf([])).toEqual([]);
  });

  it('leaves empty parts out', () => {
    const long = 'x'.repeat(MAX_WRITE_CHARACTERS + 1);
    expect(writesOf(['', long, '', ''])).toEqual([long]);
    expect(writesOf(['', ''])).toEqual([]);
  });

  it('always gives back the same text, in writes within the limit unless one part is longer', () => {
    // Parts of every size up to three writes, of one-, two- and four-byte characters (a surrogate pair).
    const part = fc
      .tuple(fc.nat({ max: 3 * MAX_WRITE_CHARACTERS }), fc.constantFrom('a', 'é', '€', '😀'))
      .map(([length, character]) => character.repeat(Math.ceil(length / character.length)));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (given) => {
        const writes = writesOf(given);
        expect(writes.join('')).toBe(given.join(''));
        for (const write of writes) {
          expect(write).not.toBe('');
          if (write.length > MAX_WRITE_CHARACTERS) expect(given).toContain(write);
        }
      }),
      { numRuns: 200 },
    );
  });
});
