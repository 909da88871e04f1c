import { MAX_SLUG_LENGTH, slugCandidate } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { derivesFrom } from './slug-assignment.js';

describe('derivesFrom', () => {
  it('accepts the base and its numbered candidates', () => {
    expect(derivesFrom('alpha', 'alpha')).toBe(true);
    expect(derivesFrom('alpha-2', 'alpha')).toBe(true);
    expect(derivesFrom('alpha-17', 'alpha')).toBe(true);
  });

  it('refuses slugs of another title, and suffixes no candidate carries', () => {
    expect(derivesFrom('alphabet', 'alpha')).toBe(false);
    expect(derivesFrom('alpha-1', 'alpha')).toBe(false);
    expect(derivesFrom('alpha-02', 'alpha')).toBe(false);
    expect(derivesFrom('beta-2', 'alpha')).toBe(false);
    // A title ending in a number derives from itself, and reads as a candidate of the shorter base too.
    expect(derivesFrom('route-66', 'route-66')).toBe(true);
    expect(derivesFrom('route-66', 'route')).toBe(true);
    expect(derivesFrom('route-66', 'road')).toBe(false);
  });

  it('follows candidates whose base was cut short to fit the length limit', () => {
    const base = 'a'.repeat(MAX_SLUG_LENGTH);
    const second = slugCandidate(base, 2);
    expect(second.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(derivesFrom(second, base)).toBe(true);
  });
});
