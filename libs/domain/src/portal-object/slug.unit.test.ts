import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FALLBACK_SLUG,
  MAX_SLUG_LENGTH,
  slugCandidate,
  slugify,
  slugifyAnyScript,
  uniqueSlug,
} from './slug.js';

function expectSafe(slug: string): void {
  expect(slug).not.toBe('.');
  expect(slug).not.toBe('..');
  expect(slug).not.toContain('/');
  expect(slug).not.toMatch(/^-|-$|--/);
  expect(slug.length).toBeGreaterThan(0);
  expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
}

describe('slugify', () => {
  it('gives an ASCII title the slug the general path gives it', () => {
    const ascii = fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code));
    // Titles of any length; then long ones of few characters, whose slugs cross the length cut with a
    // letter, a digit or a dash at every place of it.
    const title = fc.oneof(
      fc.string({ unit: ascii, maxLength: 200, size: 'max' }),
      fc.string({ unit: fc.constantFrom('a', 'Z', '9', '-', ' ', '.'), minLength: 100, maxLength: 140 }),
    );
    fc.assert(
      fc.property(title, (text) => {
        expect(slugify(text)).toBe(slugifyAnyScript(text));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a'.repeat(80), 'a'.repeat(80)],
    [`${'a'.repeat(80)} b`, 'a'.repeat(80)],
    [`${'a'.repeat(79)} b`, 'a'.repeat(79)],
    [`${'a'.repeat(78)} b`, `${'a'.repeat(78)}-b`],
    ['--- ...', FALLBACK_SLUG],
  ])('cuts an ASCII slug at the length limit, never after a dash (%#)', (title, slug) => {
    expect(slugify(title)).toBe(slug);
    expect(slugifyAnyScript(title)).toBe(slug);
  });

  it.each([
    ['Land Cover 2024', 'land-cover-2024'],
    ['  Report — Q1 (final)!  ', 'report-q1-final'],
    ['Café Ünïcode', 'cafe-unicode'],
    ['Tiếng Việt', 'tieng-viet'],
    ['İstanbul', 'istanbul'],
    ['Ｆｕｌｌ ｗｉｄｔｈ', 'full-width'],
    ['ﬁeld', 'field'],
    ['地理データ・カタログ', '地理データ-カタログ'],
    ['Карта Йошкар-Олы', 'карта-йошкар-олы'],
    ['خريطة العالم', 'خريطة-العالم'],
    ['हिन्दी भाषा', 'हिन्दी-भाषा'],
    ['한국어 지도', '한국어-지도'],
  ])('%s → %s', (title, slug) => {
    expect(slugify(title)).toBe(slug);
    expectSafe(slugify(title));
  });

  it('keeps non-Latin letters in their composed form', () => {
    // NFKD splits デ into テ + a combining mark; the mark must come back, not be stripped like a Latin accent.
    expect(slugify('デ')).toBe('デ'.normalize('NFC'));
    expect(slugify('й')).toBe('й');
  });

  it.each(['🌍🗺️', '..', '.', '/', '---', '', '   ', '\u0301'])(
    'falls back to "untitled" for %j',
    (title) => {
      expect(slugify(title)).toBe(FALLBACK_SLUG);
    },
  );

  it('never lets a path through', () => {
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
    expectSafe(slugify('a/./b/../c'));
  });

  it('cuts a 200-character title to 80 without a trailing dash', () => {
    expect(slugify('a'.repeat(200))).toBe('a'.repeat(80));
    const words = 'abcdefghi '.repeat(20); // a word boundary falls at position 80
    const slug = slugify(words);
    expect(slug).toBe(Array.from({ length: 8 }, () => 'abcdefghi').join('-'));
    expectSafe(slug);
  });

  it('cuts between user-perceived characters', () => {
    const slug = slugify('デ'.repeat(100)); // each デ is one code unit after NFC
    expect(slug).toBe('デ'.repeat(80));
    const virama = slugify('क्षि'.repeat(30)); // multi-code-unit clusters
    expect(virama.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(virama).toBe('क्षि'.repeat(Math.floor(MAX_SLUG_LENGTH / 'क्षि'.length)));
  });

  it('is stable: a slug slugifies to itself', () => {
    for (const title of ['Café Ünïcode', '地理データ・カタログ', 'x'.repeat(200), 'Карта']) {
      const slug = slugify(title);
      expect(slugify(slug)).toBe(slug);
    }
  });
});

describe('uniqueSlug', () => {
  it('returns the base when it is free', () => {
    expect(uniqueSlug('maps', () => false)).toBe('maps');
  });

  it('counts up from 2 past the taken candidates', () => {
    const taken = new Set(['maps', 'maps-2', 'maps-3']);
    expect(uniqueSlug('maps', (candidate) => taken.has(candidate))).toBe('maps-4');
  });

  it('shortens a long base so the suffix fits in 80', () => {
    const base = slugify('word '.repeat(40));
    const taken = new Set([base]);
    const slug = uniqueSlug(base, (candidate) => taken.has(candidate));
    expect(slug.endsWith('-2')).toBe(true);
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expectSafe(slug);
    expect(slugCandidate('a'.repeat(80), 123)).toBe(`${'a'.repeat(76)}-123`);
  });

  it('refuses a candidate number below 1', () => {
    expect(() => slugCandidate('maps', 0)).toThrow(RangeError);
  });
});
