import type { Pool } from '@portal/platform';

/**
 * The sweep finds candidates in the projector's read model (libs/read-models/portal-objects/src/
 * schema.sql) because only it can answer "which uploads are old" without replaying every stream. It may
 * lag or be rebuilt; each candidate is checked against the event store before anything is done. "Old"
 * is measured against the sweep's clock (`now`), the one the decider checks the candidate with too.
 */
export interface UploadCandidate {
  readonly itemId: string;
  readonly uploadId: string;
}

interface CandidateRow {
  item_id: string;
  upload_id: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class SweepQueries {
  private readonly schema: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    if (!SCHEMA_NAME.test(schema))
      throw new RangeError(`read schema must be a lower-case SQL identifier: ${schema}`);
    this.schema = `"${schema}"`;
  }

  /** Uploads still open past their time to live at `now`. */
  expired(now: Date, limit: number): Promise<UploadCandidate[]> {
    return this.candidates(
      `SELECT item_id, upload_id FROM ${this.schema}.uploads
        WHERE status IN ('uploading', 'failed') AND expires_at < $1
        ORDER BY expires_at LIMIT $2`,
      [now, limit],
    );
  }

  /** Uploads left open under a tombstone: the item deleted, or buried by a recursive delete above it. */
  underTombstones(limit: number): Promise<UploadCandidate[]> {
    return this.candidates(
      `SELECT u.item_id, u.upload_id FROM ${this.schema}.uploads u
         JOIN ${this.schema}.portal_objects o ON o.id = u.item_id
        WHERE o.deleted_at IS NOT NULL AND u.status IN ('uploading', 'processing', 'failed')
        ORDER BY o.deleted_at LIMIT $1`,
      [limit],
    );
  }

  /** Completions requested more than `olderThanMs` before `now` and still not finished. */
  stuckCompletions(now: Date, olderThanMs: number, limit: number): Promise<UploadCandidate[]> {
    return this.candidates(
      `SELECT item_id, upload_id FROM ${this.schema}.uploads
        WHERE status = 'processing'
          AND completion_requested_at < $1::timestamptz - make_interval(secs => $2::double precision / 1000)
        ORDER BY completion_requested_at LIMIT $3`,
      [now, olderThanMs, limit],
    );
  }

  private async candidates(sql: string, values: unknown[]): Promise<UploadCandidate[]> {
    const result = await this.pool.query<CandidateRow>(sql, values);
    return result.rows.map((row) => ({ itemId: row.item_id, uploadId: row.upload_id }));
  }
}
