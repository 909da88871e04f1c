import { describe, expect, it } from 'vitest';
import { nameHash } from './name-hash.js';

describe('nameHash', () => {
  it('is FNV-1a over UTF-8, unsigned: the published test vectors', () => {
    expect(nameHash('')).toBe(0x811c9dc5);
    expect(nameHash('a')).toBe(0xe40c292c);
    expect(nameHash('foobar')).toBe(0xbf9cf968);
  });

  it('hashes the UTF-8 bytes of names beyond ASCII', () => {
    expect(nameHash('é')).not.toBe(nameHash('e'));
    expect(nameHash('é')).toBe(nameHash('\u00e9'));
  });
});
