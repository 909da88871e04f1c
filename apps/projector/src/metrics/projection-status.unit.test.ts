import { START } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { lagInEvents } from './projection-status.js';

const at = (commit: bigint, prepare: bigint) => ({ commit, prepare });

describe('lag in events', () => {
  it('is 0 at or past the head, and from the start counts every position', () => {
    expect(lagInEvents({ checkpoint: at(5n, 40n), head: at(5n, 40n) })).toBe(0);
    expect(lagInEvents({ checkpoint: START, head: START })).toBe(0);
    expect(lagInEvents({ checkpoint: START, head: at(3n, 9n) })).toBe(10);
    expect(lagInEvents({ checkpoint: at(3n, 20n), head: at(9n, 27n) })).toBe(7);
  });

  it('is at least 1 while behind, even where transaction order puts a lower global position later', () => {
    expect(lagInEvents({ checkpoint: at(7n, 30n), head: at(8n, 29n) })).toBe(1);
  });
});
