import type { RecordedEvent } from '@portal/domain';
import type { Logger, Pool } from '@portal/platform';
import { applyEventsInRuns } from '../../src/batch.js';
import { portalProjection } from '../../src/portal-projection.js';

/**
 * Applies events the way a batch does (one transaction, search_path on the schema, runs of sets between
 * the events that go alone), without a checkpoint.
 */
export async function applyInSchema(
  pool: Pool,
  schema: string,
  events: readonly RecordedEvent[],
  log: Logger,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO "${schema}", public`);
    await applyEventsInRuns(client, portalProjection, events, log);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** A `portal_objects` row as `pg` returns it. */
export interface PortalObjectRow {
  id: string;
  kind: string;
  status: string;
  title: string;
  description: string | null;
  parent_id: string | null;
  org_id: string | null;
  slug: string;
  ancestor_ids: string[];
  depth: number;
  child_count: number;
  links: unknown;
  license: string | null;
  keywords: unknown;
  extent: unknown;
  bbox: number[] | null;
  tags: unknown;
  status_message: string | null;
  geometry: unknown;
  /** PostGIS's binary form; read it with `footprintOf`. */
  footprint: string | null;
  datetime: Date | null;
  start_datetime: Date | null;
  end_datetime: Date | null;
  properties: unknown;
  items_bbox: number[] | null;
  items_start: Date | null;
  items_end: Date | null;
  visibility: string;
  effective_visibility: string;
  created_by: string | null;
  shares: unknown;
  share_readers: string[];
  share_editors: string[];
  read_principals: string[];
  version: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** The row, or a thrown error when the read model does not have it. */
export async function portalObjectRow(pool: Pool, schema: string, id: string): Promise<PortalObjectRow> {
  const result = await pool.query<PortalObjectRow>(`SELECT * FROM "${schema}".portal_objects WHERE id = $1`, [
    id,
  ]);
  const found = result.rows[0];
  if (!found) throw new Error(`no row ${id}`);
  return found;
}

/** An `uploads` row as `pg` returns it. */
export interface UploadRow {
  item_id: string;
  upload_id: string;
  bucket: string;
  key: string;
  part_size: string;
  part_count: number | null;
  size_bytes: string | null;
  file_name: string | null;
  content_type: string | null;
  status: string;
  status_message: string | null;
  expires_at: Date;
  completion_requested_at: Date | null;
  ended_at: Date | null;
  version: string;
  created_at: Date;
  updated_at: Date;
}

export async function uploadRow(pool: Pool, schema: string, itemId: string): Promise<UploadRow> {
  const result = await pool.query<UploadRow>(`SELECT * FROM "${schema}".uploads WHERE item_id = $1`, [
    itemId,
  ]);
  const found = result.rows[0];
  if (!found) throw new Error(`no upload of ${itemId}`);
  return found;
}

/** An `assets` row as `pg` returns it. */
export interface AssetRow {
  id: string;
  item_id: string;
  bucket: string;
  key: string;
  size_bytes: string;
  etag: string;
  content_type: string | null;
  file_name: string | null;
  created_at: Date;
}

export async function assetRows(pool: Pool, schema: string, itemId: string): Promise<AssetRow[]> {
  const result = await pool.query<AssetRow>(
    `SELECT * FROM "${schema}".assets WHERE item_id = $1 ORDER BY id`,
    [itemId],
  );
  return result.rows;
}

/** The footprint as WKT with its SRID (`SRID=4326;POLYGON(...)`), or `null`. */
export async function footprintOf(pool: Pool, schema: string, id: string): Promise<string | null> {
  const result = await pool.query<{ wkt: string | null }>(
    `SELECT ST_AsEWKT(footprint) AS wkt FROM "${schema}".portal_objects WHERE id = $1`,
    [id],
  );
  return result.rows[0]?.wkt ?? null;
}
