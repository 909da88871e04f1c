import type { Link } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { stacItem, type ItemAsset, type ItemRow } from './stac-item.js';
import { itemUrls } from './stac-urls.js';
import { storedStacItemText, UNSTORABLE_ITEM, withBaseUrl } from './stored-stac-item.js';

const itemId = '0b3c6a52-7e0c-4a55-9d1e-4d3f0d6c2a01';
const collectionId = '5f0e1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
const at = new Date('2025-03-04T05:06:07.089Z');

function link(href: string): Link {
  return { title: 'More', href, rel: 'related', type: 'text/html', targetType: 'url', linkJson: {} };
}

const base: ItemRow = {
  id: itemId,
  title: 'Scene over the lake',
  description: null,
  parent_id: collectionId,
  stac_id: null,
  parent_kind: 'collection',
  parent_stac_id: null,
  footprint_bbox: null,
  status: 'ready',
  geometry: { type: 'Point', coordinates: [8.5, 47.3] },
  bbox: [8.5, 47.3, 8.5, 47.3],
  datetime: at,
  start_datetime: null,
  end_datetime: null,
  properties: null,
  href_assets: [],
  links: [],
  version: '4',
  tags: [],
  created_at: at,
  updated_at: new Date('2025-03-05T00:00:00.000Z'),
};

const uploaded: ItemAsset[] = [
  { id: 'a1', item_id: itemId, size_bytes: '1024', content_type: 'image/tiff', file_name: 'scene.tif' },
  { id: 'a2', item_id: itemId, size_bytes: '7', content_type: null, file_name: null },
  // Same file name again: the key becomes `scene.tif-2`.
  { id: 'a3', item_id: itemId, size_bytes: '9007199254740993', content_type: null, file_name: 'scene.tif' },
];

const rows: Record<string, { row: ItemRow; assets: ItemAsset[] }> = {
  'a point with uploaded assets': { row: base, assets: uploaded },
  'assets by href beside uploads': {
    row: {
      ...base,
      href_assets: [
        { id: 'h1', key: 'data', asset: { href: 'https://data.example/x.tif', roles: ['data'] } },
        { id: 'h2', key: 'thumb', asset: { href: 'https://data.example/t.png', 'file:size': 12 } },
      ],
    },
    assets: uploaded,
  },
  'a time range': {
    row: {
      ...base,
      datetime: null,
      start_datetime: new Date('2020-01-01T00:00:00.000Z'),
      end_datetime: new Date('2020-12-31T23:59:59.999Z'),
    },
    assets: [],
  },
  'no time at all: dated by its creation': { row: { ...base, datetime: null }, assets: [] },
  'no geometry nor bbox': { row: { ...base, geometry: null, bbox: null }, assets: [] },
  'a bbox alone across the antimeridian': {
    row: { ...base, geometry: null, bbox: [170, -10, -170, 10] },
    assets: [],
  },
  'a geometry without bbox (the footprint box)': {
    row: { ...base, bbox: null, footprint_bbox: [8.5, 47.3, 8.5, 47.3] },
    assets: [],
  },
  'properties named as STAC fields, which the item overrides': {
    row: {
      ...base,
      description: 'Its own',
      properties: {
        title: 'not this',
        description: 'nor this',
        datetime: 'nor this',
        created: 'x',
        updated: 'y',
        'eo:cloud_cover': 12.5,
        nested: { a: [1, null, 'two'] },
      },
    },
    assets: [],
  },
  'under a catalog: no collection': { row: { ...base, parent_kind: 'catalog' }, assets: uploaded },
  'at the root level': { row: { ...base, parent_id: null, parent_kind: null }, assets: [] },
  'absolute portal links, normalized': {
    row: { ...base, links: [link('HTTPS://Example.COM/a/../b?q=1'), link('mailto:someone@example.org')] },
    assets: [],
  },
  'named by its STAC client, with characters its path encodes': {
    row: { ...base, stac_id: 'S2A scene #1?%20 "quoted" \\ Ω 😀', title: 'Named' },
    assets: uploaded,
  },
  'named, directly under a catalog: its path by UUID': {
    row: { ...base, stac_id: 'S2A_named', parent_kind: 'catalog' },
    assets: [],
  },
  'texts needing escapes': {
    row: { ...base, title: 'Quote " backslash \\ tab \t newline \n and é ✓ 😀', description: '\\u0001' },
    assets: [],
  },
};

const baseUrls = [
  'http://127.0.0.1:3000',
  'https://portal.example.org/some/path',
  'https://portal.example.org/with"quote\\and$&$1',
];

describe('the stored STAC JSON of an item', () => {
  for (const [name, { row, assets }] of Object.entries(rows)) {
    it(`answers exactly what stacItem builds: ${name}`, () => {
      const text = storedStacItemText(row, assets);
      expect(text).not.toBe(UNSTORABLE_ITEM);
      for (const baseUrl of baseUrls) {
        const built = stacItem(row, assets, itemUrls(baseUrl), baseUrl);
        const answered = withBaseUrl(text, baseUrl);
        expect(JSON.parse(answered)).toEqual(built);
        expect(answered).toBe(JSON.stringify(built));
      }
    });
  }

  it('holds the base URL only as the placeholder, which nothing else in JSON text can be', () => {
    const text = storedStacItemText(base, uploaded);
    expect(text).not.toContain('http://');
    expect(text.split('\u0001')).toHaveLength(1 + 4 + 1 + uploaded.length);
  });

  it("answers a named item's STAC id as its id and, encoded, in its path", () => {
    const named = { ...base, stac_id: 'scene #1' };
    const item = JSON.parse(withBaseUrl(storedStacItemText(named, []), 'http://x')) as {
      id: string;
      links: { rel: string; href: string }[];
    };
    expect(item.id).toBe('scene #1');
    expect(item.links.find((one) => one.rel === 'self')?.href).toBe(
      `http://x/api/v1/stac/collections/${collectionId}/items/scene%20%231`,
    );
    // Directly under a catalog, its path is by UUID, the one id unique across every catalog.
    const underCatalog = JSON.parse(
      withBaseUrl(storedStacItemText({ ...named, parent_kind: 'catalog' }, []), 'http://x'),
    ) as { id: string; links: { rel: string; href: string }[] };
    expect(underCatalog.id).toBe('scene #1');
    expect(underCatalog.links.find((one) => one.rel === 'self')?.href).toBe(
      `http://x/api/v1/stac/items/${itemId}`,
    );
  });

  it('is not stored when a portal link is relative: it resolves against the base as a URL', () => {
    expect(storedStacItemText({ ...base, links: [link('../elsewhere')] }, [])).toBe(UNSTORABLE_ITEM);
  });

  it('is not stored when the item itself holds the placeholder character', () => {
    expect(storedStacItemText({ ...base, title: 'odd \u0001 title' }, [])).toBe(UNSTORABLE_ITEM);
    expect(storedStacItemText({ ...base, properties: { '\u0001': 1 } }, [])).toBe(UNSTORABLE_ITEM);
  });
});
