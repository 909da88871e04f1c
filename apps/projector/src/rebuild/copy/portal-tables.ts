import { numberArray, textArray, type CopyValue } from './copy-text.js';
import type { FoldedObject, FoldedUpload } from './folded-object.js';
import type { FoldedAsset } from './portal-fold.js';

/** The JSON of a row's shares, as the share statements build each one. */
function sharesJson(object: FoldedObject): string {
  if (object.shares.length === 0) return '[]';
  return JSON.stringify(
    object.shares.map((share) => ({
      principal: { type: share.type, id: share.id },
      permission: share.permission,
    })),
  );
}

/**
 * The columns of `portal_objects` the fold writes: all but `footprint`, which PostGIS computes from the
 * geometry and the bbox as each row is inserted (`portal_footprint`, as the SQL path's inserts and
 * updates do; object-copy.ts).
 */
export const objectColumns = [
  'id',
  'kind',
  'status',
  'title',
  'description',
  'parent_id',
  'org_id',
  'slug',
  'ancestor_ids',
  'depth',
  'child_count',
  'links',
  'license',
  'keywords',
  'extent',
  'bbox',
  'tags',
  'version',
  'created_at',
  'updated_at',
  'deleted_at',
  'status_message',
  'geometry',
  'datetime',
  'start_datetime',
  'end_datetime',
  'properties',
  'href_assets',
  'stac_id',
  'items_bbox',
  'items_start',
  'items_end',
  'asset_bytes',
  'visibility',
  'effective_visibility',
  'created_by',
  'shares',
  'share_readers',
  'share_editors',
  'read_principals',
  'stac_item',
] as const;

/** `stacItem`: the item's stored STAC JSON (stac-item-fold.ts), `null` for any other row. */
export function objectValues(o: FoldedObject, stacItem: CopyValue): CopyValue[] {
  return [
    o.id,
    o.kind,
    o.status,
    o.title,
    o.description,
    o.parentId,
    o.orgId,
    o.slug,
    textArray(o.ancestorIds),
    String(o.depth),
    String(o.childCount),
    o.links,
    o.license,
    o.keywords,
    o.extent,
    o.bbox === null ? null : numberArray(o.bbox),
    o.tags,
    o.version.toString(),
    o.createdAt,
    o.updatedAt,
    o.deletedAt,
    o.statusMessage,
    o.geometry,
    o.datetime?.text ?? null,
    o.startDatetime?.text ?? null,
    o.endDatetime?.text ?? null,
    o.properties,
    o.hrefAssets,
    o.stacId,
    o.itemsExtent.box === null ? null : numberArray(o.itemsExtent.box),
    o.itemsExtent.starts?.text ?? null,
    o.itemsExtent.ends?.text ?? null,
    String(o.assetBytes),
    o.visibility,
    o.effectiveVisibility,
    o.createdBy,
    sharesJson(o),
    textArray(o.shareReaders),
    textArray(o.shareEditors),
    textArray(o.readPrincipals),
    stacItem,
  ];
}

export const uploadColumns = [
  'item_id',
  'upload_id',
  'bucket',
  'key',
  'part_size',
  'part_count',
  'size_bytes',
  'file_name',
  'content_type',
  'status',
  'status_message',
  'expires_at',
  'completion_requested_at',
  'ended_at',
  'version',
  'created_at',
  'updated_at',
] as const;

function numberOrNull(value: number | null): string | null {
  return value === null ? null : String(value);
}

export function uploadValues(u: FoldedUpload): CopyValue[] {
  return [
    u.itemId,
    u.uploadId,
    u.bucket,
    u.key,
    String(u.partSize),
    numberOrNull(u.partCount),
    numberOrNull(u.sizeBytes),
    u.fileName,
    u.contentType,
    u.status,
    u.statusMessage,
    u.expiresAt,
    u.completionRequestedAt,
    u.endedAt,
    u.version.toString(),
    u.createdAt,
    u.updatedAt,
  ];
}

export const assetColumns = [
  'id',
  'item_id',
  'bucket',
  'key',
  'size_bytes',
  'etag',
  'content_type',
  'file_name',
  'created_at',
] as const;

export function assetValues(a: FoldedAsset): CopyValue[] {
  return [
    a.id,
    a.itemId,
    a.bucket,
    a.key,
    String(a.sizeBytes),
    a.etag,
    a.contentType,
    a.fileName,
    a.createdAt,
  ];
}
