import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonical JSON', () => {
  it('is the same for objects with their keys in another order, at every depth', () => {
    const one = { title: 'T', links: [{ rel: 'self', href: 'x' }], extent: { spatial: { bbox: [1, 2] } } };
    const other = { extent: { spatial: { bbox: [1, 2] } }, links: [{ href: 'x', rel: 'self' }], title: 'T' };
    expect(canonicalJson(other)).toBe(canonicalJson(one));
    expect(canonicalJson(one)).toBe(
      '{"extent":{"spatial":{"bbox":[1,2]}},"links":[{"href":"x","rel":"self"}],"title":"T"}',
    );
  });

  it('keeps the order of arrays and tells other values apart', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson({ a: null })).not.toBe(canonicalJson({}));
  });

  it('gives keys that look like numbers no special order, and reads null and nothing as null', () => {
    expect(canonicalJson({ b: 1, 10: 2, 9: 3 })).toBe('{"10":2,"9":3,"b":1}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(null)).toBe('null');
  });
});
