import { describe, expect, it } from 'vitest';
import { AS_OF_MESSAGE, parseAsOf, portalItemQuerySchema } from './history.js';

describe('asOf', () => {
  it('takes a revision, a non-negative integer', () => {
    expect(parseAsOf('0')).toEqual({ kind: 'revision', revision: 0 });
    expect(parseAsOf('42')).toEqual({ kind: 'revision', revision: 42 });
  });

  it('takes an RFC 3339 date-time with a time zone, fractions and offsets included', () => {
    const at = (text: string) => {
      const parsed = parseAsOf(text);
      return parsed?.kind === 'time' ? parsed.at.toISOString() : null;
    };
    expect(at('2024-05-01T12:00:00Z')).toBe('2024-05-01T12:00:00.000Z');
    expect(at('2024-05-01t12:00:00.25z')).toBe('2024-05-01T12:00:00.250Z');
    expect(at('2024-05-01T14:00:00+02:00')).toBe('2024-05-01T12:00:00.000Z');
    expect(at('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      '-1',
      '1.5',
      '2024-05-01',
      '2024-05-01T12:00:00',
      '2023-02-29T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '2024-05-01T24:00:00Z',
      'May 1, 2024',
      '1e3',
    ]) {
      expect(parseAsOf(text), text).toBeNull();
    }
  });

  it('answers a clear message for a bad value, and nothing when absent', () => {
    const parsed = portalItemQuerySchema.safeParse({ asOf: 'yesterday' });
    expect(parsed.error?.issues[0]?.message).toBe(AS_OF_MESSAGE);
    expect(portalItemQuerySchema.parse({})).toEqual({});
  });
});
