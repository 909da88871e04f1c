import { STAC_VERSION, type StacItem } from '@portal/contracts';
import type { HrefAsset, Link } from '@portal/domain';
import type { AssetRow } from './asset-rows.js';
import { absoluteHref, bboxGeometry, type ItemUrls } from './stac-urls.js';

/** `file:size` on assets (the STAC file extension). */
export const FILE_EXTENSION = 'https://stac-extensions.github.io/file/v2.1.0/schema.json';
export const JSON_TYPE = 'application/json';
export const GEOJSON_TYPE = 'application/geo+json';

/**
 * One item as its STAC JSON is built from it: the API reads it (apps/api/src/stac/item-query.ts) and the
 * projector reads the same columns to store the item's JSON (stored-stac-item.ts).
 */
export interface ItemRow {
  readonly id: string;
  /** The id a STAC client gave the item when it is not a UUID: its STAC `id`. */
  readonly stac_id: string | null;
  readonly title: string;
  readonly description: string | null;
  readonly parent_id: string | null;
  /** The parent's kind when the caller may read it (`null` otherwise: no link to it then). */
  readonly parent_kind: 'catalog' | 'collection' | null;
  /** The parent's STAC name, when its client named it (a collection's: docs/stac.md, "Collection ids"). */
  readonly parent_stac_id: string | null;
  /** The footprint's [west, south, east, north], for items that have a geometry but no bbox. */
  readonly footprint_bbox: number[] | null;
  readonly status: string;
  readonly geometry: Record<string, unknown> | null;
  readonly bbox: number[] | null;
  readonly datetime: Date | null;
  readonly start_datetime: Date | null;
  readonly end_datetime: Date | null;
  readonly properties: Record<string, unknown> | null;
  readonly href_assets: HrefAsset[];
  readonly links: Link[];
  /** The item stream's revision (bigint as text): its `ETag`, for `If-Match` on the transactions. */
  readonly version: string;
  readonly tags: string[];
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** What `stacItem` reads of an uploaded asset. */
export type ItemAsset = Pick<AssetRow, 'id' | 'item_id' | 'size_bytes' | 'content_type' | 'file_name'>;

/**
 * An item's assets: those registered by href first, under their keys and exactly as sent; then its
 * uploaded files, keyed by file name (`data` when the upload gave none; a key already taken gets `-2`,
 * `-3`…). An uploaded file's href is the portal's download, which answers a redirect to the object store
 * for a caller who may read the item.
 */
function assetsOf(row: ItemRow, assets: readonly ItemAsset[], baseUrl: string): StacItem['assets'] {
  const result: StacItem['assets'] = {};
  for (const { key, asset } of row.href_assets) result[key] = asset;
  for (const asset of assets) {
    const base = asset.file_name ?? 'data';
    let key = base;
    for (let n = 2; key in result; n += 1) key = `${base}-${n}`;
    result[key] = {
      href: portalAssetUrl(asset.item_id, asset.id, baseUrl),
      ...(asset.content_type !== null && { type: asset.content_type }),
      ...(asset.file_name !== null && { title: asset.file_name }),
      roles: ['data'],
      'file:size': Number(asset.size_bytes),
    };
  }
  return result;
}

/**
 * STAC's time fields: the instant, or the range with `datetime` null; an item with neither is dated
 * by its creation, since STAC requires one (the search matches it by the same time: docs/stac.md).
 */
function timeProperties(row: ItemRow) {
  if (row.start_datetime !== null && row.end_datetime !== null) {
    return {
      datetime: null,
      start_datetime: row.start_datetime.toISOString(),
      end_datetime: row.end_datetime.toISOString(),
    };
  }
  return { datetime: (row.datetime ?? row.created_at).toISOString() };
}

/** The geometry and bbox: as given; from the bbox alone, its rectangle (two across the antimeridian). */
function footprintOf(row: ItemRow): Pick<StacItem, 'geometry' | 'bbox'> {
  const bbox = row.bbox ?? row.footprint_bbox;
  if (row.geometry !== null) return { geometry: row.geometry, ...(bbox !== null && { bbox }) };
  if (row.bbox !== null && row.bbox.length === 4) {
    const [west = 0, south = 0, east = 0, north = 0] = row.bbox;
    return { geometry: bboxGeometry([west, south, east, north]), bbox: row.bbox };
  }
  return { geometry: null };
}

/** A link of the portal object's own `links`, with its href made absolute. */
export function portalLink(link: Link, baseUrl: string) {
  return { href: absoluteHref(link.href, baseUrl), rel: link.rel, type: link.type, title: link.title };
}

/** The title of an item's or a collection's `alternate` link to its portal record. */
export const PORTAL_ITEM_LINK_TITLE = 'The portal item';

/** The portal API's record of an object. */
export function portalItemUrl(id: string, baseUrl: string): string {
  return `${baseUrl}/api/v1/portal/items/${id}`;
}

/** The portal's download of an uploaded asset: a redirect to the object store for a caller who may read it. */
export function portalAssetUrl(itemId: string, assetId: string, baseUrl: string): string {
  return `${portalItemUrl(itemId, baseUrl)}/assets/${assetId}`;
}

/** An item's or a collection's STAC `id`: the one its client gave it, else its UUID. */
export function stacIdOf(row: Pick<ItemRow, 'id' | 'stac_id'>): string {
  return row.stac_id ?? row.id;
}

/**
 * An item's STAC URL: in a collection, by its STAC id (unique there when the item was created); outside
 * any, by its UUID, the one id unique across every catalog's items.
 */
export function itemUrl(
  row: Pick<ItemRow, 'id' | 'stac_id'>,
  collectionId: string | null,
  urls: ItemUrls,
): string {
  return collectionId === null ? urls.item(row.id, null) : urls.item(stacIdOf(row), collectionId);
}

/**
 * The STAC Item of a row. Properties keep every field as the portal stored them; the STAC fields
 * (time, title, description, created, updated) are the item's own and win over a property of that name.
 */
export function stacItem(
  row: ItemRow,
  assets: readonly ItemAsset[],
  urls: ItemUrls,
  baseUrl: string,
): StacItem {
  // The collection by its STAC id: the name its client gave it, else its UUID.
  const collectionId = row.parent_kind === 'collection' ? (row.parent_stac_id ?? row.parent_id) : null;
  const parent =
    row.parent_id === null || row.parent_kind === null
      ? urls.root
      : collectionId !== null
        ? urls.collection(collectionId)
        : urls.catalog(row.parent_id);
  return {
    type: 'Feature',
    stac_version: STAC_VERSION,
    stac_extensions: assets.length > 0 ? [FILE_EXTENSION] : [],
    id: stacIdOf(row),
    ...footprintOf(row),
    properties: {
      ...row.properties,
      title: row.title,
      ...(row.description !== null && { description: row.description }),
      ...timeProperties(row),
      created: row.created_at.toISOString(),
      updated: row.updated_at.toISOString(),
    },
    links: [
      { rel: 'self', href: itemUrl(row, collectionId, urls), type: GEOJSON_TYPE },
      { rel: 'root', href: urls.root, type: JSON_TYPE },
      { rel: 'parent', href: parent, type: JSON_TYPE },
      ...(collectionId === null
        ? []
        : [{ rel: 'collection', href: urls.collection(collectionId), type: JSON_TYPE }]),
      // The portal's record of the item, by its UUID: its history, audit, shares and moves start there.
      {
        rel: 'alternate',
        href: portalItemUrl(row.id, baseUrl),
        type: JSON_TYPE,
        title: PORTAL_ITEM_LINK_TITLE,
      },
      ...row.links.map((link) => portalLink(link, baseUrl)),
    ],
    assets: assetsOf(row, assets, baseUrl),
    ...(collectionId !== null && { collection: collectionId }),
  };
}
