import { expect, it } from 'vitest';
import type { z } from 'zod';
import { VISIBLE_TITLE_MESSAGE } from '../portal-fields.js';
import { acceptanceOf, rejectionOf } from './parse.js';

/** Titles a reader would see as blank: each must be a 400 naming the field. */
export const invisibleTitles = [
  ['spaces', '   '],
  ['tabs and newlines', '\t\n\r'],
  ['no-break and ideographic spaces', '\u00a0\u2003\u3000'],
  ['zero-width space, joiners and the BOM', '\u200b\u200c\u200d\u2060\ufeff'],
  ['bidi marks', '\u200e\u200f\u202e'],
  ['a combining accent without a base', '\u0301'],
  ['Hangul and braille fillers', '\u3164\u2800'],
  ['a soft hyphen between spaces', ' \u00ad '],
] as const;

export function itRefusesInvisibleTitles(schema: z.ZodType, bodyWith: (title: string) => unknown): void {
  it.each(invisibleTitles)('title: rejects %s only', (_name, title) => {
    expect(rejectionOf(schema, bodyWith(title)).message).toBe(`title: ${VISIBLE_TITLE_MESSAGE}`);
  });

  it('title: accepts visible text with spaces and invisible characters around it', () => {
    acceptanceOf(schema, bodyWith(' \u200bLand cover\u200d '));
    acceptanceOf(schema, bodyWith('é'));
    acceptanceOf(schema, bodyWith('🗺'));
    acceptanceOf(schema, bodyWith('地図'));
  });
}
