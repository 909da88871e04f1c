import { inTransaction, type Pool, type PoolClient } from '@portal/platform';
import type { Projection } from '@portal/read-model-core';
import { readerStatements } from '../schemas.js';
import { quoteIdentifier, statementLabel } from '@portal/read-model-core';
import { largestFirst } from './index-build-order.js';
import { onConnections } from './on-connections.js';

/**
 * `maintenance_work_mem` of each session that builds a rebuilt schema's reader indexes: an index built
 * at once from a filled table sorts all its rows, and a sort that fits in memory does not spill to
 * disk. PostgreSQL's default is 64MB.
 */
export const DEFAULT_INDEX_BUILD_MEMORY = '256MB';

/**
 * Sessions that build the reader indexes side by side: each index is one backend's sort, so one session
 * leaves every other core idle, and a table's indexes can all be built at once (`CREATE INDEX` takes a
 * lock that only excludes writers). Three keep two cores busy while one session waits on its disk writes.
 */
export const READER_DDL_CONNECTIONS = 3;

export interface ReaderDdlProgress {
  /** Statements begun before this one (several indexes are built at once), all of them at the end. */
  readonly done: number;
  readonly total: number;
  /** What the statement being applied makes (`index portal_objects_stac_text`); empty once all are done. */
  readonly current: string;
}

/** How long one reader statement took: `label` as `statementLabel` gives it (`index audit_events_org`). */
export interface StatementTime {
  readonly label: string;
  readonly ms: number;
}

/** A plain `CREATE [UNIQUE] INDEX`, after any leading comment lines: built side by side with the others. */
function isCreateIndex(statement: string): boolean {
  return /^\s*(?:--[^\n]*\n\s*)*CREATE\s+(?:UNIQUE\s+)?INDEX\b/i.test(statement);
}

async function inReadSchema(client: PoolClient, schema: string, memory: string): Promise<void> {
  await client.query(`SET LOCAL search_path TO ${quoteIdentifier(schema)}, public`);
  await client.query("SELECT set_config('maintenance_work_mem', $1, true)", [memory]);
}

/**
 * Completes a schema created lean (`ensureReadSchema` with `lean`) and filled by a replay: applies every
 * read model's reader-only statements (indexes, statistics, triggers that fill what they keep from the
 * rows), with `maintenance_work_mem` raised to `memory`, telling `onStatement` how far it got. The
 * indexes first, on `connections` sessions at once, the most costly first (`largestFirst`), so no big
 * one starts last while the others sit idle; then the other statements in their order, in one
 * transaction (triggers lock the table against the index builds, and fill the totals from the rows).
 * The schema then has what `ensureReadSchema` alone gives; a failure leaves it to be dropped.
 * Returns each statement's time, in the order they began.
 */
export async function applyReaderDdl(
  pool: Pool,
  options: {
    readonly schema: string;
    readonly projection: Projection;
    readonly memory?: string;
    readonly connections?: number;
    /** More `CREATE INDEX` statements to build with the reader indexes (a copy replay's). */
    readonly alsoIndexes?: readonly string[];
    readonly onStatement?: (progress: ReaderDdlProgress) => void;
  },
): Promise<StatementTime[]> {
  const { schema } = options;
  const memory = options.memory ?? DEFAULT_INDEX_BUILD_MEMORY;
  const statements = [...(options.alsoIndexes ?? []), ...readerStatements(options.projection)];
  const indexes = await largestFirst(pool, schema, statements.filter(isCreateIndex));
  const others = statements.filter((statement) => !isCreateIndex(statement));
  let begun = 0;
  const times: { label: string; ms: number }[] = [];
  const applying = async (client: PoolClient, statement: string): Promise<void> => {
    const label = statementLabel(statement);
    options.onStatement?.({ done: begun, total: statements.length, current: label });
    begun += 1;
    const time = { label, ms: 0 };
    times.push(time);
    const startedAt = performance.now();
    await client.query(statement);
    time.ms = Math.round(performance.now() - startedAt);
  };
  await onConnections(pool, indexes, options.connections ?? READER_DDL_CONNECTIONS, {
    begin: (client) => inReadSchema(client, schema, memory),
    apply: applying,
  });
  await inTransaction(pool, async (client) => {
    await inReadSchema(client, schema, memory);
    for (const statement of others) await applying(client, statement);
  });
  options.onStatement?.({ done: statements.length, total: statements.length, current: '' });
  return times;
}
