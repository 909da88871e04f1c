import { describe, expect, it } from 'vitest';
import { copyField, copyLine, textArray } from './copy-text.js';

describe('COPY text', () => {
  it('escapes backslashes, tabs and line breaks, and writes NULL as \\N', () => {
    expect(copyField(null)).toBe('\\N');
    expect(copyField('plain')).toBe('plain');
    expect(copyField('{"a":"x\\"y\\\\z"}')).toBe('{"a":"x\\\\"y\\\\\\\\z"}');
    expect(copyField('a\tb\nc\rd\\')).toBe('a\\tb\\nc\\rd\\\\');
  });

  it('joins a row with tabs and ends it with a newline', () => {
    expect(copyLine(['a', null, 'b\tc'])).toBe('a\t\\N\tb\\tc\n');
    expect(copyLine([])).toBe('\n');
  });

  it('quotes array elements, escaping quotes and backslashes', () => {
    expect(textArray([])).toBe('{}');
    expect(textArray(['a', 'b'])).toBe('{"a","b"}');
    expect(textArray(['say "hi"', 'back\\slash'])).toBe('{"say \\"hi\\"","back\\\\slash"}');
  });
});
