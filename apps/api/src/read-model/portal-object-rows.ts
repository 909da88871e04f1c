import type { Link, PortalKind } from '@portal/domain';
import type { Pool } from '@portal/platform';

/** A row of `read.portal_objects` as pg returns it (bigint as text, timestamps as Date). */
export interface PortalObjectRow {
  readonly id: string;
  readonly kind: PortalKind;
  readonly status: string;
  readonly title: string;
  readonly description: string | null;
  readonly parent_id: string | null;
  readonly slug: string;
  readonly ancestor_ids: string[];
  readonly depth: number;
  readonly child_count: number;
  readonly links: Link[];
  readonly license: string | null;
  readonly keywords: string[] | null;
  readonly extent: unknown;
  readonly bbox: number[] | null;
  readonly tags: string[];
  readonly status_message: string | null;
  readonly geometry: Record<string, unknown> | null;
  readonly datetime: Date | null;
  readonly start_datetime: Date | null;
  readonly end_datetime: Date | null;
  readonly properties: Record<string, unknown> | null;
  /** A container's extent computed from the ready items directly below it. */
  readonly items_bbox: [number, number, number, number] | null;
  readonly items_start: Date | null;
  readonly items_end: Date | null;
  readonly version: string;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export const portalObjectColumns = `id, kind, status, title, description, parent_id, slug, ancestor_ids, depth,
  child_count, links, license, keywords, extent, bbox, tags, status_message, geometry, datetime, start_datetime,
  end_datetime, properties, items_bbox, items_start, items_end, version, created_at, updated_at`;

/** A live (not deleted) object, optionally of one kind; `null` answers 404 upstream. */
export async function findLiveObject(
  pool: Pool,
  id: string,
  kind?: PortalKind,
): Promise<PortalObjectRow | null> {
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${portalObjectColumns} FROM read.portal_objects
     WHERE id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR kind = $2)`,
    [id, kind ?? null],
  );
  return result.rows[0] ?? null;
}

export async function findLiveObjects(pool: Pool, ids: readonly string[]): Promise<PortalObjectRow[]> {
  if (ids.length === 0) return [];
  const result = await pool.query<PortalObjectRow>(
    `SELECT ${portalObjectColumns} FROM read.portal_objects WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [ids],
  );
  return result.rows;
}

/** Levels below the object (0 for a leaf): bounds a move so the subtree stays within MAX_DEPTH. */
export async function subtreeHeight(pool: Pool, id: string, depth: number): Promise<number> {
  const result = await pool.query<{ deepest: number | null }>(
    `SELECT max(depth) AS deepest FROM read.portal_objects WHERE ancestor_ids @> ARRAY[$1::uuid] AND deleted_at IS NULL`,
    [id],
  );
  const deepest = result.rows[0]?.deepest ?? null;
  return deepest === null ? 0 : deepest - depth;
}
