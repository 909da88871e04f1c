import { describe, expect, it } from 'vitest';
import { boxOf, boxOfSelection, boxOutline, boxPolygon, parseBoxParam, type Invert } from './bbox.js';

/** A plate carrée of 360 × 180 px: x = lon + 180, y = 90 - lat; nothing outside it. */
const plate: Invert = (x, y) => (x < 0 || x > 360 || y < 0 || y > 180 ? null : [x - 180, 90 - y]);

describe('boxOf', () => {
  it('reads 2D and 3D bboxes, and nothing else', () => {
    expect(boxOf([1, 2, 3, 4])).toEqual([1, 2, 3, 4]);
    expect(boxOf([1, 2, -5, 3, 4, 9])).toEqual([1, 2, 3, 4]);
    expect(boxOf([1, 2, 3])).toBeNull();
    expect(boxOf(null)).toBeNull();
  });
});

describe('boxPolygon', () => {
  it('closes a counterclockwise ring', () => {
    expect(boxPolygon([5, 45, 10, 48]).coordinates[0]).toEqual([
      [5, 45],
      [10, 45],
      [10, 48],
      [5, 48],
      [5, 45],
    ]);
  });

  it('runs a box across the antimeridian east past 180°', () => {
    expect(boxPolygon([170, -10, -170, 10]).coordinates[0]?.[1]).toEqual([190, -10]);
  });
});

describe('boxOutline', () => {
  it('follows the parallels with a point every degree, closed', () => {
    const ring = boxOutline([0, 40, 3, 50]).coordinates[0] ?? [];
    expect(ring).toEqual([
      [0, 40],
      [1, 40],
      [2, 40],
      [3, 40],
      [3, 50],
      [2, 50],
      [1, 50],
      [0, 50],
      [0, 40],
    ]);
  });
});

describe('boxOfSelection', () => {
  it('maps a rectangle dragged either way to west, south, east, north', () => {
    expect(boxOfSelection(plate, 185, 40, 191, 45)).toEqual([5, 45, 11, 50]);
    expect(boxOfSelection(plate, 191, 45, 185, 40)).toEqual([5, 45, 11, 50]);
  });

  it('keeps to the points on the globe when the rectangle reaches past it', () => {
    expect(boxOfSelection(plate, -16, -16, 16, 16)).toEqual([-180, 74, -164, 90]);
  });

  it('is null for a click without area or a rectangle off the globe', () => {
    expect(boxOfSelection(plate, 10, 10, 10, 30)).toBeNull();
    expect(boxOfSelection(plate, 400, 10, 450, 30)).toBeNull();
  });
});

describe('parseBoxParam', () => {
  it('reads four numbers in range', () => {
    expect(parseBoxParam('5.9,45.8,10.5,47.8')).toEqual([5.9, 45.8, 10.5, 47.8]);
    expect(parseBoxParam('170,-10,-170,10')).toEqual([170, -10, -170, 10]);
  });

  it('refuses anything else', () => {
    expect(parseBoxParam(null)).toBeNull();
    expect(parseBoxParam('1,2,3')).toBeNull();
    expect(parseBoxParam('a,b,c,d')).toBeNull();
    expect(parseBoxParam('0,10,5,0')).toBeNull();
    expect(parseBoxParam('0,0,200,10')).toBeNull();
  });
});
