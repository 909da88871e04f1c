import type { AssetAttached, RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { boxUnionSql, extentBox } from './collection-extent.js';
import type { StatusChange } from './item-handlers.js';

/** An upload's status change of a run: its item, and the change the single handler would make. */
export interface RunStatusChange {
  readonly itemId: string;
  readonly recorded: RecordedEvent;
  readonly change: StatusChange;
  readonly ending: boolean;
}

/**
 * Every upload status change of a run in one statement, as the single statement makes each one
 * (item-handlers.ts): the upload row, the item row while it is live, and the parents of the items that
 * became ready widened by all of them at once (min and max, so in any order). Lists the items
 * without an upload.
 */
const changeStatusRun = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::text[], $5::timestamptz[], $6::boolean[],
                         $7::boolean[])
                  AS c(item_id, revision, status, message, at, ending, keep_message)
  ), upload AS (
    UPDATE uploads u
       SET status = c.status, status_message = CASE WHEN c.keep_message THEN u.status_message ELSE c.message END,
           version = c.revision, updated_at = c.at,
           completion_requested_at = CASE WHEN c.status = 'processing' THEN c.at ELSE u.completion_requested_at END,
           ended_at = CASE WHEN c.ending THEN c.at ELSE u.ended_at END
      FROM input c
     WHERE u.item_id = c.item_id AND u.version < c.revision
  ), item AS (
    UPDATE portal_objects o
       SET status = c.status, status_message = CASE WHEN c.keep_message THEN o.status_message ELSE c.message END,
           version = c.revision, updated_at = c.at
      FROM input c
     WHERE o.id = c.item_id AND o.version < c.revision AND o.deleted_at IS NULL
    RETURNING o.parent_id, ${extentBox('o.bbox')} AS box, COALESCE(o.datetime, o.start_datetime) AS starts,
              COALESCE(o.datetime, o.end_datetime) AS ends, c.status
  ), ready AS (
    SELECT parent_id,
           CASE WHEN count(box) > 0 THEN ARRAY[min(box[1]), min(box[2]), max(box[3]), max(box[4])] END AS box,
           min(starts) AS starts, max(ends) AS ends
      FROM item WHERE status = 'ready' GROUP BY parent_id
  ), extent AS (
    UPDATE portal_objects p
       SET items_bbox = ${boxUnionSql('p.items_bbox', 'r.box')},
           items_start = least(p.items_start, r.starts),
           items_end = greatest(p.items_end, r.ends)
      FROM ready r
     WHERE p.id = r.parent_id AND p.deleted_at IS NULL
  )
  SELECT c.item_id FROM input c WHERE NOT EXISTS (SELECT 1 FROM uploads u WHERE u.item_id = c.item_id)`;

export async function changeRunStatuses(sql: Sql, changes: readonly RunStatusChange[]): Promise<void> {
  if (changes.length === 0) return;
  const result = await sql.query<{ item_id: string }>({
    name: 'projector_items_change_upload_status_run',
    text: changeStatusRun,
    values: [
      changes.map(({ itemId }) => itemId),
      changes.map(({ recorded }) => recorded.revision.toString()),
      changes.map(({ change }) => change.status),
      changes.map(({ change }) => change.statusMessage ?? null),
      changes.map(({ recorded }) => recorded.metadata.occurredAt),
      changes.map(({ ending }) => ending),
      changes.map(({ change }) => change.statusMessage === undefined),
    ],
  });
  const unknown = result.rows[0];
  if (unknown) throw new Error(`item ${unknown.item_id} is not in the read model`);
}

/** Every asset of a run in one statement, as the single statement attaches one (item-handlers.ts). */
const attachRun = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::text[], $5::text[], $6::bigint[], $7::text[],
                         $8::text[], $9::text[], $10::timestamptz[])
                  AS a(item_id, revision, asset_id, bucket, key, size_bytes, etag, content_type, file_name, at)
  ), attached AS (
    INSERT INTO assets (id, item_id, bucket, key, size_bytes, etag, content_type, file_name, created_at)
    SELECT asset_id, item_id, bucket, key, size_bytes, etag, content_type, file_name, at FROM input
    ON CONFLICT (id) DO NOTHING
  ), item AS (
    UPDATE portal_objects o SET version = a.revision, updated_at = a.at, asset_bytes = o.asset_bytes + a.size_bytes
      FROM input a
     WHERE o.id = a.item_id AND o.version < a.revision AND o.deleted_at IS NULL
  )
  SELECT a.item_id FROM input a WHERE NOT EXISTS (SELECT 1 FROM uploads u WHERE u.item_id = a.item_id)`;

export async function attachRunAssets(
  sql: Sql,
  attached: readonly (readonly [AssetAttached, RecordedEvent])[],
): Promise<void> {
  if (attached.length === 0) return;
  const assets = attached.map(([event]) => event.data.asset);
  const result = await sql.query<{ item_id: string }>({
    name: 'projector_items_asset_attached_run',
    text: attachRun,
    values: [
      attached.map(([event]) => event.data.id),
      attached.map(([, recorded]) => recorded.revision.toString()),
      assets.map((asset) => asset.id),
      assets.map((asset) => asset.bucket),
      assets.map((asset) => asset.key),
      assets.map((asset) => asset.size),
      assets.map((asset) => asset.etag),
      assets.map((asset) => asset.contentType),
      assets.map((asset) => asset.fileName),
      attached.map(([, recorded]) => recorded.metadata.occurredAt),
    ],
  });
  const unknown = result.rows[0];
  if (unknown) throw new Error(`item ${unknown.item_id} is not in the read model`);
}
