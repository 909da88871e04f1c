import { describe, expect, it } from 'vitest';
import { bboxGeometry, parseBbox, parseBboxText } from './bbox.js';

describe('bbox', () => {
  it('takes 4 numbers, or 6 with heights (which the 2D footprints ignore)', () => {
    expect(parseBboxText('1,2,3,4')).toEqual([1, 2, 3, 4]);
    expect(parseBbox([1, 2, -10, 3, 4, 10])).toEqual([1, 2, 3, 4]);
  });

  it('splits a box across the antimeridian into two polygons', () => {
    expect(bboxGeometry([170, -10, -170, 10])).toEqual({
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [170, -10],
            [180, -10],
            [180, 10],
            [170, 10],
            [170, -10],
          ],
        ],
        [
          [
            [-180, -10],
            [-170, -10],
            [-170, 10],
            [-180, 10],
            [-180, -10],
          ],
        ],
      ],
    });
    expect(bboxGeometry([1, 2, 3, 4])).toMatchObject({ type: 'Polygon' });
  });

  it.each([
    '1,2,3',
    '1,2,3,4,5',
    '0,10,1,5',
    '-181,0,0,1',
    '0,-91,1,1',
    'a,b,c,d',
    '0x1,0,1,1',
    ',1,2,3',
    '0,0,10,1,1,5',
  ])('refuses %s with a 400 naming bbox', (text) => {
    expect(() => parseBboxText(text)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^bbox: /) as unknown }),
    );
  });
});
