import { expect, it } from 'vitest';
import type { z } from 'zod';
import { UNSTORABLE_TEXT_MESSAGE } from '../storable-text.js';
import { acceptanceOf, rejectionOf } from './parse.js';

interface TextField {
  /** Path as `describeZodError` prints it, e.g. `links[0].href`. */
  path: string;
  /** A valid body whose field at `path` holds `value`. */
  bodyWith: (value: string) => unknown;
}

/** PostgreSQL cannot store these in text or jsonb; each must be a 400 naming the field, not a 500. */
export const unstorableTexts = [
  ['a NUL character', 'a\u0000b'],
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', 'a\udc00b'],
  ['a high surrogate at the end', 'ab\ud83d'],
  ['a surrogate pair in the wrong order', '\ude00\ud83d'],
] as const;

export function itRefusesUnstorableText(schema: z.ZodType, field: TextField): void {
  const { path, bodyWith } = field;

  it.each(unstorableTexts)(`${path}: rejects %s`, (_name, text) => {
    expect(rejectionOf(schema, bodyWith(text)).message).toBe(`${path}: ${UNSTORABLE_TEXT_MESSAGE}`);
  });

  it(`${path}: accepts a character outside the BMP (a valid surrogate pair)`, () => {
    acceptanceOf(schema, bodyWith('map 🗺 of 😀'));
  });
}
