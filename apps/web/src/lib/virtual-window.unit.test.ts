import { describe, expect, it } from 'vitest';
import { visibleRange } from './virtual-window.js';

describe('visibleRange', () => {
  const base = { viewportHeight: 440, rowHeight: 44, overscan: 5 };

  it('renders the rows in view plus the overscan, at the top', () => {
    expect(visibleRange({ ...base, scrollTop: 0, count: 100_000 })).toEqual({ start: 0, end: 15 });
  });

  it('keeps the window the same size deep in a list of 100,000 rows', () => {
    const range = visibleRange({ ...base, scrollTop: 44 * 50_000 + 10, count: 100_000 });
    expect(range).toEqual({ start: 49_995, end: 50_016 });
    expect(range.end - range.start).toBeLessThan(25);
  });

  it('stops at the last row and never starts before the first', () => {
    expect(visibleRange({ ...base, scrollTop: 44 * 98, count: 100 })).toEqual({ start: 93, end: 100 });
    expect(visibleRange({ ...base, scrollTop: -300, count: 100 })).toEqual({ start: 0, end: 15 });
    expect(visibleRange({ ...base, scrollTop: 0, count: 0 })).toEqual({ start: 0, end: 0 });
    expect(visibleRange({ ...base, scrollTop: 44 * 500, count: 100 })).toEqual({ start: 100, end: 100 });
  });
});
