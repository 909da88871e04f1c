import { describe, expect, it } from 'vitest';
import { parseDatetime } from './datetime-interval.js';

describe('parseDatetime', () => {
  it('reads an instant as an interval of one instant, in UTC', () => {
    expect(parseDatetime('2024-01-31T14:00:00+02:00')).toEqual({
      start: '2024-01-31T12:00:00.000Z',
      end: '2024-01-31T12:00:00.000Z',
    });
  });

  it('reads closed and open intervals, `..` or an empty side being open', () => {
    expect(parseDatetime('2024-01-01T00:00:00Z/2024-02-01T00:00:00Z')).toEqual({
      start: '2024-01-01T00:00:00.000Z',
      end: '2024-02-01T00:00:00.000Z',
    });
    expect(parseDatetime('../2024-02-01T00:00:00Z')).toEqual({
      start: null,
      end: '2024-02-01T00:00:00.000Z',
    });
    expect(parseDatetime('2024-01-01T00:00:00z/')).toEqual({ start: '2024-01-01T00:00:00.000Z', end: null });
  });

  it.each([
    'yesterday',
    '2024-01-01',
    '2024-01-01T00:00:00',
    '2024-02-30T00:00:00Z',
    '2024-01-01T25:00:00Z',
    '../..',
    '/',
    '2024-01-02T00:00:00Z/2024-01-01T00:00:00Z',
    'a/b/c',
  ])('refuses %s with a 400 naming datetime', (text) => {
    expect(() => parseDatetime(text)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^datetime: /) as unknown }),
    );
  });
});
