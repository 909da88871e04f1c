import type { HrefAsset, Link } from '@portal/domain';
import type { Pool } from '@portal/platform';
import {
  findAssetsOf,
  findVisibleObjects,
  portalAssetUrl,
  type AssetRow,
  type PortalObjectRow,
  type Principals,
} from '@portal/read-model-portal-objects';
import { extentOf } from '../collections/collection-record.js';

/** Link target types that may point at another portal object (docs/decisions.md, `linksPortalItems`). */
const PORTAL_TARGET_TYPES = new Set(['catalog', 'collection', 'item', 'portal-item']);
const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/**
 * The id a link points at: a bare id, a path of this API ending in it, or an absolute URL of this API
 * (same origin as `baseUrl`) ending in it. Links elsewhere point at nothing of ours.
 */
export function linkedObjectId(link: Link, baseUrl: string): string | null {
  if (!PORTAL_TARGET_TYPES.has(link.targetType)) return null;
  try {
    const url = new URL(link.href, `${baseUrl}/`);
    if (url.origin !== new URL(baseUrl).origin) return null;
    return UUID_AT_END.exec(url.pathname)?.[1]?.toLowerCase() ?? null;
  } catch {
    return null;
  }
}

export function summary(row: PortalObjectRow) {
  return {
    id: row.id,
    bbox: row.bbox,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    status: row.status,
    kind: row.kind,
    title: row.title,
  };
}

function assetRecord(asset: AssetRow, baseUrl: string) {
  return {
    id: asset.id,
    key: asset.key,
    href: portalAssetUrl(asset.item_id, asset.id, baseUrl),
    size: Number(asset.size_bytes),
    etag: asset.etag,
    type: asset.content_type,
    fileName: asset.file_name,
    createdAt: asset.created_at.toISOString(),
    source: 'upload' as const,
  };
}

/** An asset registered by href: where it lives, and its STAC asset object as the client sent it. */
export function hrefAssetRecord({ id, key, asset }: HrefAsset) {
  return { id, key, href: asset.href, source: 'href' as const, asset };
}

/** The fields only one kind has. */
function kindFields(row: PortalObjectRow) {
  switch (row.kind) {
    case 'collection':
      return { license: row.license ?? 'other', keywords: row.keywords ?? [], extent: extentOf(row) };
    case 'item':
      return {
        statusMessage: row.status_message,
        geometry: row.geometry,
        datetime: row.datetime?.toISOString() ?? null,
        start_datetime: row.start_datetime?.toISOString() ?? null,
        end_datetime: row.end_datetime?.toISOString() ?? null,
        properties: row.properties ?? {},
      };
    case 'catalog':
      return {};
    default:
      return row.kind satisfies never;
  }
}

/**
 * The contract's portal item record for each row (rows the caller can see), any kind, in three queries
 * however many rows: the rows themselves (given), their linked objects and their assets. Linked objects
 * that do not exist or that the caller cannot see are left out of `linksPortalItems` (the same to the
 * caller); `links` stays as its author wrote it.
 */
export async function portalItemRecords(
  pool: Pool,
  rows: readonly PortalObjectRow[],
  baseUrl: string,
  principals: Principals,
) {
  const linkedIdsOf = (row: PortalObjectRow) => [
    ...new Set(row.links.map((link) => linkedObjectId(link, baseUrl)).filter((id) => id !== null)),
  ];
  const allLinked = [...new Set(rows.flatMap(linkedIdsOf))];
  const itemIds = rows.filter((row) => row.kind === 'item').map((row) => row.id);
  const [linkedRows, assets] = await Promise.all([
    findVisibleObjects(pool, allLinked, principals),
    findAssetsOf(pool, itemIds),
  ]);
  const linked = new Map(linkedRows.map((target) => [target.id, target]));
  return rows.map((row) => ({
    ...summary(row),
    description: row.description,
    parentId: row.parent_id,
    slug: row.slug,
    tags: row.tags,
    links: row.links,
    linksPortalItems: linkedIdsOf(row).flatMap((id) => {
      const target = linked.get(id);
      return target ? [summary(target)] : [];
    }),
    assets: [
      ...(assets.get(row.id) ?? []).map((asset) => assetRecord(asset, baseUrl)),
      ...row.href_assets.map(hrefAssetRecord),
    ],
    ...kindFields(row),
    ...(row.stac_id !== null && { stacId: row.stac_id }),
    revision: Number(row.version),
  }));
}

export async function portalItemRecord(
  pool: Pool,
  row: PortalObjectRow,
  baseUrl: string,
  principals: Principals,
) {
  const [record] = await portalItemRecords(pool, [row], baseUrl, principals);
  if (!record) throw new Error(`no record built for ${row.id}`);
  return record;
}
