import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { kindsToRead, rememberKind } from './known-kinds.js';

const all = ['catalog', 'collection', 'item'] as const;

describe('the kinds of objects found before', () => {
  it('reads every candidate for an id never found', () => {
    expect(kindsToRead(randomUUID(), all)).toEqual(all);
  });

  it('reads only the known kind, or nothing when the known kind is not a candidate', () => {
    const id = randomUUID();
    rememberKind(id, 'collection');
    expect(kindsToRead(id, all)).toEqual(['collection']);
    expect(kindsToRead(id, ['catalog', 'collection'])).toEqual(['collection']);
    expect(kindsToRead(id, ['item'])).toEqual([]);
  });

  it('keeps the first kind learned and forgets the oldest ids when full', () => {
    const first = randomUUID();
    rememberKind(first, 'catalog');
    rememberKind(first, 'item');
    expect(kindsToRead(first, all)).toEqual(['catalog']);
    for (let index = 0; index < 50_000; index += 1) rememberKind(randomUUID(), 'item');
    expect(kindsToRead(first, all)).toEqual(all);
  });
});
