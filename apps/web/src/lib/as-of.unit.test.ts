import { describe, expect, it } from 'vitest';
import { asOfFromLocalTime, localTimeOf } from './as-of.js';

describe('asOfFromLocalTime', () => {
  it('turns a local wall-clock time into the same moment in UTC', () => {
    const local = '2024-05-01T12:30:15';
    expect(asOfFromLocalTime(local)).toBe(new Date(2024, 4, 1, 12, 30, 15).toISOString());
  });

  it('takes a time without seconds', () => {
    expect(asOfFromLocalTime('2024-05-01T12:30')).toBe(new Date(2024, 4, 1, 12, 30).toISOString());
  });

  it('refuses an empty, partial or impossible value', () => {
    expect(asOfFromLocalTime('')).toBeNull();
    expect(asOfFromLocalTime('2024-05-01')).toBeNull();
    expect(asOfFromLocalTime('2024-13-45T99:99')).toBeNull();
  });

  it('reads back what localTimeOf writes, to the second', () => {
    const moment = new Date(2025, 0, 2, 3, 4, 5);
    expect(localTimeOf(moment)).toBe('2025-01-02T03:04:05');
    expect(asOfFromLocalTime(localTimeOf(moment))).toBe(moment.toISOString());
  });
});
