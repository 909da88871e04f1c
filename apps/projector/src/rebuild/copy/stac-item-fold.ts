import { jsonbOf, storedStacItemText, type ItemAsset, type ItemRow } from '@portal/read-model-portal-objects';
import { isLive, type FoldedObject } from './folded-object.js';
import type { FoldedAsset } from './portal-fold.js';
import { parseStamp, type Stamp } from './timestamps.js';

// The copy writes each live item's stored STAC JSON with its row (`stac_item`), rendered by the same
// function the live projector renders it with from the row it reads back (stale-stac-items.ts of the
// read model), so both write the same text. What the row read back would hold is rebuilt here: JSON
// as jsonb gives it back, timestamps as node-postgres parses them.

/** A timestamptz as node-postgres parses it: to the millisecond, the microseconds cut (floor). */
function dateOf(stamp: Stamp): Date {
  return new Date(Math.floor(stamp.micros / 1000));
}

function microsOf(text: string): number {
  return parseStamp(text)?.micros ?? Date.parse(text) * 1000;
}

function dateOfText(text: string): Date {
  const stamp = parseStamp(text);
  return stamp === null ? new Date(text) : dateOf(stamp);
}

/**
 * The row of a live item as the API and the live projector read it. `footprint_bbox` is PostGIS's box
 * of the footprint and is read only when the item has a geometry and no bbox; the portal always stores
 * the geometry's own bbox with a geometry (new-object-row.ts), unless the geometry holds no position, whose
 * footprint has no box either: it is null both ways.
 */
function itemRowOf(item: FoldedObject, parent: FoldedObject | undefined): ItemRow {
  const parentKind = parent?.kind;
  return {
    id: item.id,
    stac_id: item.stacId,
    title: item.title,
    description: item.description,
    parent_id: item.parentId,
    parent_kind: parentKind === 'catalog' || parentKind === 'collection' ? parentKind : null,
    parent_stac_id: parent?.stacId ?? null,
    footprint_bbox: null,
    status: item.status,
    geometry: item.geometry === null ? null : (jsonbOf(item.geometry) as Record<string, unknown>),
    bbox: item.bbox === null ? null : [...item.bbox],
    datetime: item.datetime === null ? null : dateOf(item.datetime),
    start_datetime: item.startDatetime === null ? null : dateOf(item.startDatetime),
    end_datetime: item.endDatetime === null ? null : dateOf(item.endDatetime),
    properties: item.properties === null ? null : (jsonbOf(item.properties) as Record<string, unknown>),
    href_assets: jsonbOf(item.hrefAssets) as ItemRow['href_assets'],
    links: jsonbOf(item.links) as ItemRow['links'],
    version: item.version.toString(),
    tags: jsonbOf(item.tags) as string[],
    created_at: dateOfText(item.createdAt),
    updated_at: dateOfText(item.updatedAt),
  };
}

/**
 * The stored STAC JSON of each folded object: the text for a live item, `null` for everything else
 * (catalogs, collections, tombstones: the live projector renders live items only).
 */
export function foldedStacItems(
  objects: ReadonlyMap<string, FoldedObject>,
  assets: Iterable<FoldedAsset>,
): (object: FoldedObject) => string | null {
  const byItem = new Map<string, FoldedAsset[]>();
  for (const asset of assets) {
    const list = byItem.get(asset.itemId);
    if (list === undefined) byItem.set(asset.itemId, [asset]);
    else list.push(asset);
  }
  // Oldest first, then by id: the order the API lists an item's assets in (`findAssetsOf`).
  const order = (a: FoldedAsset, b: FoldedAsset) =>
    microsOf(a.createdAt) - microsOf(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return (object) => {
    if (object.kind !== 'item' || !isLive(object)) return null;
    const itemAssets: ItemAsset[] = (byItem.get(object.id) ?? []).sort(order).map((asset) => ({
      id: asset.id,
      item_id: asset.itemId,
      size_bytes: String(asset.sizeBytes),
      content_type: asset.contentType,
      file_name: asset.fileName,
    }));
    const parent = object.parentId === null ? undefined : objects.get(object.parentId);
    return storedStacItemText(itemRowOf(object, parent), itemAssets);
  };
}
