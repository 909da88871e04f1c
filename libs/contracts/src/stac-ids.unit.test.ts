import { describe, expect, it } from 'vitest';
import { isStacId, stacItemNameSchema } from './stac-ids.js';

describe('a STAC item id', () => {
  it.each([
    'S2A_47XNF_20230423_0_L2A',
    'LC08 L2SP #1?%20',
    'Ω-100%',
    'scene.tif',
    '...',
    '😀',
    'x'.repeat(256),
  ])('takes %j', (id) => {
    expect(isStacId(id)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['a slash', 'a/b'],
    ['a dot', '.'],
    ['two dots', '..'],
    ['a NUL', 'a\u0000'],
    ['a tab', 'a\tb'],
    ['DEL', 'a\u007f'],
    ['a C1 control', 'a\u0085'],
    ['a lone surrogate', 'a\ud800'],
    ['a space at the start', ' a'],
    ['a space at the end', 'a '],
    ['257 characters', 'x'.repeat(257)],
  ])('refuses %s', (_what, id) => {
    expect(isStacId(id)).toBe(false);
  });

  it('as a portal name, refuses a UUID', () => {
    expect(stacItemNameSchema.safeParse('0b3c6a52-7e0c-4a55-9d1e-4d3f0d6c2a01').success).toBe(false);
    expect(stacItemNameSchema.safeParse('S2A_1').success).toBe(true);
  });
});
