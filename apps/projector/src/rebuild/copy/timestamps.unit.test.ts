import { describe, expect, it } from 'vitest';
import { earlier, later, parseStamp } from './timestamps.js';

describe('parseStamp', () => {
  it('orders instants as PostgreSQL does, zones and microseconds included', () => {
    const utc = parseStamp('2024-06-01T10:30:00Z');
    const sameInstant = parseStamp('2024-06-01T12:30:00+02:00');
    const aMicroLater = parseStamp('2024-06-01T10:30:00.000001Z');
    expect(utc?.micros).toBe(sameInstant?.micros);
    expect((aMicroLater?.micros ?? 0) - (utc?.micros ?? 0)).toBe(1);
    expect(parseStamp('2024-06-01T10:30:00.25-0130')?.micros).toBe(
      (Date.parse('2024-06-01T12:00:00Z') + 250) * 1000,
    );
  });

  it('keeps the text PostgreSQL is given', () => {
    const later_ = parseStamp('2024-06-01T12:30:00+02:00');
    const earlier_ = parseStamp('2024-06-01T10:29:59.999Z');
    expect(earlier(later_, earlier_)?.text).toBe('2024-06-01T10:29:59.999Z');
    expect(later(later_, earlier_)?.text).toBe('2024-06-01T12:30:00+02:00');
    expect(earlier(null, later_)).toBe(later_);
  });

  it('refuses what it would not read exactly: no zone, nanoseconds, impossible dates', () => {
    expect(parseStamp('2024-06-01 10:30:00')).toBeNull();
    expect(parseStamp('2024-06-01T10:30:00.0000001Z')).toBeNull();
    expect(parseStamp('2025-02-30T00:00:00Z')).toBeNull();
    expect(parseStamp('June 1st')).toBeNull();
  });
});
