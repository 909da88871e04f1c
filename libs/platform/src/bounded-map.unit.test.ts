import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.js';

describe('BoundedMap', () => {
  it('keeps every entry up to its capacity', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c'), map.size]).toEqual([1, 2, 3, 3]);
  });

  it('forgets the oldest entry to make room for a new key', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.get('a'); // a hit does not make an entry younger
    map.set('c', 3);
    expect(map.has('a')).toBe(false);
    expect([map.get('b'), map.get('c'), map.size]).toEqual([2, 3, 2]);
  });

  it('replaces the value of a key it holds without evicting anything', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 10);
    expect([map.get('a'), map.get('b'), map.size]).toEqual([10, 2, 2]);
  });

  it('keeps undefined and null values apart from absent keys', () => {
    const map = new BoundedMap<string, string | null>(2);
    map.set('none', null);
    expect(map.has('none')).toBe(true);
    expect(map.get('none')).toBeNull();
    expect(map.has('other')).toBe(false);
  });

  it('empties on clear and forgets a deleted key', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.delete('a');
    expect(map.has('a')).toBe(false);
    map.clear();
    expect(map.size).toBe(0);
  });

  it('refuses a capacity that could hold nothing', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
    expect(() => new BoundedMap(1.5)).toThrow(RangeError);
  });
});
