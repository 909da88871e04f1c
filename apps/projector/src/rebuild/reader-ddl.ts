import { inTransaction, type Pool } from '@portal/platform';
import type { Projection } from '@portal/read-model-core';
import { readerStatements } from '../schemas.js';
import { quoteIdentifier, statementLabel } from '@portal/read-model-core';

/**
 * `maintenance_work_mem` of the session that builds a rebuilt schema's reader indexes: an index built
 * at once from a filled table sorts all its rows, and a sort that fits in memory does not spill to
 * disk. PostgreSQL's default is 64MB.
 */
export const DEFAULT_INDEX_BUILD_MEMORY = '256MB';

export interface ReaderDdlProgress {
  /** Statements applied so far. */
  readonly done: number;
  readonly total: number;
  /** What the statement being applied makes (`index portal_objects_stac_text`); empty once all are done. */
  readonly current: string;
}

/**
 * Completes a schema created lean (`ensureReadSchema` with `lean`) and filled by a replay: applies every
 * read model's reader-only statements (indexes, statistics, triggers that fill what they keep from the
 * rows), one at a time so `onStatement` can tell how far it got, in one transaction with
 * `maintenance_work_mem` raised to `memory`. The schema then has what `ensureReadSchema` alone gives.
 */
export async function applyReaderDdl(
  pool: Pool,
  options: {
    readonly schema: string;
    readonly projection: Projection;
    readonly memory?: string;
    readonly onStatement?: (progress: ReaderDdlProgress) => void;
  },
): Promise<void> {
  const statements = readerStatements(options.projection);
  await inTransaction(pool, async (client) => {
    await client.query(`SET LOCAL search_path TO ${quoteIdentifier(options.schema)}, public`);
    await client.query("SELECT set_config('maintenance_work_mem', $1, true)", [
      options.memory ?? DEFAULT_INDEX_BUILD_MEMORY,
    ]);
    for (const [done, statement] of statements.entries()) {
      options.onStatement?.({ done, total: statements.length, current: statementLabel(statement) });
      await client.query(statement);
    }
  });
  options.onStatement?.({ done: statements.length, total: statements.length, current: '' });
}
