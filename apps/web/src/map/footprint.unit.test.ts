import type { PortalItemRecord } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { footprintOf } from './footprint.js';

const base: PortalItemRecord = {
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'item',
  status: 'ready',
  title: 'Scene',
  description: null,
  parentId: null,
  slug: 'scene',
  revision: 0,
  bbox: null,
  tags: [],
  links: [],
  linksPortalItems: [],
  assets: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('footprintOf', () => {
  it('is an item geometry when it has one, framed by its bbox', () => {
    const geometry = { type: 'Point', coordinates: [7, 46] };
    expect(footprintOf({ ...base, bbox: [7, 46, 7, 46], geometry })).toEqual({
      box: [7, 46, 7, 46],
      geometry,
    });
  });

  it('is the bbox as a polygon for an item without a geometry', () => {
    expect(footprintOf({ ...base, bbox: [5.9, 45.8, 10.5, 47.8] })?.geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [5.9, 45.8],
          [10.5, 45.8],
          [10.5, 47.8],
          [5.9, 47.8],
          [5.9, 45.8],
        ],
      ],
    });
  });

  it('is the overall spatial extent of a collection', () => {
    const record: PortalItemRecord = {
      ...base,
      kind: 'collection',
      extent: {
        spatial: {
          bbox: [
            [-10, 36, 10.5, 47.8],
            [5.9, 45.8, 10.5, 47.8],
          ],
        },
        temporal: { interval: [['2024-01-01T00:00:00Z', null]] },
      },
    };
    expect(footprintOf(record)?.box).toEqual([-10, 36, 10.5, 47.8]);
  });

  it('is nothing for an object without a place', () => {
    expect(footprintOf(base)).toBeNull();
    expect(footprintOf({ ...base, kind: 'catalog' })).toBeNull();
  });
});
