import type { CollectionExtent, HrefAsset, ItemMetadata, Link } from '@portal/domain';

/**
 * The field values of synthetic objects, derived from the object's ordinal and the field's version,
 * so an update can state both the new and the previous value without keeping every string in memory.
 * Titles carry the ordinal: unique among siblings, as most real titles are.
 */
const topics = ['Orthophotos', 'Elevation model', 'Land cover', 'Cadastre', 'Road network', 'Hydrography'];
const regions = ['Bavaria', 'Tyrol', 'Lombardy', 'Provence', 'Flanders', 'Zealand', 'Bohemia', 'Styria'];
const licenses = ['CC-BY-4.0', 'CC0-1.0', 'ODbL-1.0', 'proprietary', 'other'];
const keywordPool = [
  'raster',
  'vector',
  'lidar',
  'aerial',
  'satellite',
  'survey',
  'tiles',
  'cog',
  'open-data',
];

function pickBy<T>(items: readonly T[], n: number): T {
  const item = items[Math.abs(n) % items.length];
  if (item === undefined) throw new RangeError('empty list');
  return item;
}

export function titleOf(label: string, ordinal: number, version: number): string {
  const base = `${pickBy(topics, ordinal)} ${pickBy(regions, ordinal >> 3)} ${label} ${ordinal}`;
  return version === 0 ? base : `${base} (rev ${version})`;
}

export function descriptionOf(ordinal: number, version: number): string {
  return (
    `${pickBy(topics, ordinal + version)} of ${pickBy(regions, ordinal)} at ${10 + ((ordinal + version) % 40)} cm, ` +
    `flown in ${2010 + (ordinal % 15)} and delivered as cloud-optimised tiles; edition ${version + 1}.`
  );
}

export function linksOf(ordinal: number, version: number): Link[] {
  const count = (ordinal + version) % 3;
  return Array.from({ length: count }, (_, index) => ({
    title: index === 0 ? 'Product page' : 'Metadata record',
    href: `https://data.example.org/products/${ordinal}/${version}/${index}`,
    rel: index === 0 ? 'describedby' : 'alternate',
    type: index === 0 ? 'text/html' : 'application/xml',
    targetType: 'web',
    linkJson: index === 0 ? {} : { standard: 'ISO 19115' },
  }));
}

export function keywordsOf(ordinal: number, version: number): string[] {
  const count = (ordinal * 7 + version) % 5;
  return Array.from({ length: count }, (_, index) => pickBy(keywordPool, ordinal + version * 3 + index * 5));
}

export function licenseOf(ordinal: number, version: number): string {
  return pickBy(licenses, ordinal + version);
}

/** About a third of collections bring their own extent; the rest leave it to the projector. */
export function extentOf(ordinal: number): CollectionExtent | null {
  if (ordinal % 3 !== 0) return null;
  const west = -10 + (ordinal % 30);
  const south = 35 + (ordinal % 20);
  return {
    spatial: { bbox: [[west, south, west + 1.5, south + 1]] },
    temporal: { interval: [[`${2010 + (ordinal % 15)}-04-01T00:00:00Z`, null]] },
  };
}

/** A scene's footprint, time and STAC properties; a new version moves it a little and changes its cover. */
export function itemMetadataOf(ordinal: number, version: number): ItemMetadata {
  const west = -10 + ((ordinal * 7 + version) % 300) / 10;
  const south = 35 + ((ordinal * 3) % 200) / 10;
  const ring: [number, number][] = [
    [west, south],
    [west + 0.2, south],
    [west + 0.2, south + 0.2],
    [west, south + 0.2],
    [west, south],
  ];
  const day = new Date(Date.UTC(2020, 0, 1 + ((ordinal + version * 11) % 1500)));
  return {
    geometry: { type: 'Polygon', coordinates: [ring] },
    bbox: null,
    datetime: day.toISOString(),
    startDatetime: null,
    endDatetime: null,
    tags: version === 0 ? [] : ['reprocessed'],
    properties: {
      'eo:cloud_cover': (ordinal * 13 + version * 29) % 101,
      platform: pickBy(['sentinel-2a', 'sentinel-2b', 'landsat-9'], ordinal),
      'proj:epsg': 32632,
      'view:sun_elevation': 20 + ((ordinal + version) % 50),
    },
  };
}

/** The assets a scene is registered with, by href (`ids` name them): a COG and its thumbnail. */
export function hrefAssetsOf(ordinal: number, ids: readonly [string, string]): HrefAsset[] {
  const [visual, thumbnail] = ids;
  return [
    {
      id: visual,
      key: 'visual',
      asset: {
        href: `https://data.example.org/scenes/${ordinal}/visual.tif`,
        type: 'image/tiff',
        roles: ['visual'],
      },
    },
    {
      id: thumbnail,
      key: 'thumbnail',
      asset: {
        href: `https://data.example.org/scenes/${ordinal}/thumb.png`,
        type: 'image/png',
        roles: ['thumbnail'],
      },
    },
  ];
}
