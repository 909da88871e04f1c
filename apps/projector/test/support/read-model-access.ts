import type { RecordedEvent } from '@portal/domain';
import type { Logger, Pool } from '@portal/platform';
import { applyEvents } from '../../src/batch.js';
import { portalProjection } from '../../src/portal-projection.js';

/** Applies events the way a batch does (one transaction, search_path on the schema), without a checkpoint. */
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
    await applyEvents(client, portalProjection, events, log);
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
