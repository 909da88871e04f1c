import type { Link } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { findLiveObjects, type PortalObjectRow } from '../read-model/portal-object-rows.js';

/** Link target types that may point at another portal object (DESIGN.md §7). */
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

function summary(row: PortalObjectRow) {
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

/** The contract's portal item record, for any kind; linked objects that do not exist are left out. */
export async function portalItemRecord(pool: Pool, row: PortalObjectRow, baseUrl: string) {
  const linkedIds = [
    ...new Set(row.links.map((link) => linkedObjectId(link, baseUrl)).filter((id) => id !== null)),
  ];
  const linked = new Map((await findLiveObjects(pool, linkedIds)).map((target) => [target.id, target]));
  return {
    ...summary(row),
    description: row.description,
    parentId: row.parent_id,
    slug: row.slug,
    tags: row.tags,
    links: row.links,
    linksPortalItems: linkedIds.flatMap((id) => {
      const target = linked.get(id);
      return target ? [summary(target)] : [];
    }),
    assets: [] as { id: string; key: string; href: string }[],
    revision: Number(row.version),
  };
}
