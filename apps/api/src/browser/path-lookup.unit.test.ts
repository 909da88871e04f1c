import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../http/problem.js';
import { slugSegments } from './path-lookup.js';

function refusal(segments: string[]): string {
  try {
    slugSegments(segments);
  } catch (error) {
    if (error instanceof HttpProblem && error.status === 400) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(segments)}`);
}

describe('browser path segments', () => {
  it('passes slugs through, recomposed to NFC as the projector stores them', () => {
    expect(slugSegments(['climate', 'cafe-unicode', '地理データ'])).toEqual([
      'climate',
      'cafe-unicode',
      '地理データ',
    ]);
    expect(slugSegments(['cafe\u0301'])).toEqual(['caf\u00e9']);
  });

  it.each([
    [[], 'path must name at least one slug, e.g. `climate/temperature`'],
    [['a', '', 'b'], 'path segment 2 is empty (a doubled or trailing "/")'],
    [['a', 'b', ''], 'path segment 3 is empty (a doubled or trailing "/")'],
    [['.', 'a'], 'path segment 1 is "."; paths are resolved from the root level only'],
    [['a', '..'], 'path segment 2 is ".."; paths are resolved from the root level only'],
    [['a\u0000'], 'path segment 1 contains NUL or an unpaired surrogate'],
    [Array.from({ length: 33 }, () => 'a'), 'path has 33 segments; the tree is at most 32 levels deep'],
  ])('refuses %j with a 400 saying why', (segments, message) => {
    expect(refusal(segments)).toBe(message);
  });

  it('accepts 32 segments, the deepest tree there can be', () => {
    expect(slugSegments(Array.from({ length: 32 }, () => 'a'))).toHaveLength(32);
  });
});
