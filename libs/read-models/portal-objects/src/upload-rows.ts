import type { UploadStatus } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { QueryParams } from '@portal/read-model-core';
import { visibleObject, type Principals } from './visibility.js';

/** A row of `read.uploads` as pg returns it (bigint as text). */
export interface UploadRow {
  readonly item_id: string;
  readonly upload_id: string;
  readonly bucket: string;
  readonly key: string;
  readonly part_size: string;
  readonly part_count: number | null;
  /** The declared size, else (once ready) the assembled object's: the asset's size. */
  readonly size_bytes: string | null;
  readonly file_name: string | null;
  readonly content_type: string | null;
  /** The projector writes only the domain's upload statuses here. */
  readonly status: UploadStatus;
  readonly status_message: string | null;
  readonly expires_at: Date;
  readonly completion_requested_at: Date | null;
}

/** The upload of an item the caller can see; `null` (404 upstream) when missing, deleted or hidden. */
export async function findUploadOfVisibleItem(
  pool: Pool,
  itemId: string,
  principals: Principals,
): Promise<UploadRow | null> {
  const params = new QueryParams();
  const result = await pool.query<UploadRow>(
    `SELECT u.item_id, u.upload_id, u.bucket, u.key, u.part_size, u.part_count,
            coalesce(u.size_bytes, (SELECT a.size_bytes FROM read.assets a
                                     WHERE a.item_id = u.item_id AND a.key = u.key
                                     ORDER BY a.created_at DESC LIMIT 1)) AS size_bytes,
            u.file_name, u.content_type, u.status, u.status_message, u.expires_at, u.completion_requested_at
       FROM read.uploads u JOIN read.portal_objects o ON o.id = u.item_id
      WHERE u.item_id = ${params.add(itemId, 'uuid')} AND ${visibleObject('o', principals, params)}`,
    params.values,
  );
  return result.rows[0] ?? null;
}
