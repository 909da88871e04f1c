import { withSchemaLock, type Pool } from '@portal/platform';
import { deadLettersDdl } from './dead-letters/dead-letters.js';
import type { Projection, Sql } from '@portal/read-model-core';
import { initCheckpoint, projectionCheckpointsDdl } from '@portal/read-model-core';
import { quoteIdentifier } from '@portal/read-model-core';

/**
 * Runs `setup` inside one transaction with `search_path` on `schema`, serialised by an advisory lock so
 * two instances starting together do not race on `CREATE SCHEMA IF NOT EXISTS`.
 */
async function inSchema(pool: Pool, schema: string, setup: (sql: Sql) => Promise<void>): Promise<void> {
  await withSchemaLock(pool, schema, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    await client.query(`SET LOCAL search_path TO ${quoteIdentifier(schema)}, public`);
    await setup(client);
  });
}

/** Every read model's reader-only statements (`ReadModel.readerDdl`), in the order they are applied. */
export function readerStatements(projection: Projection): string[] {
  return projection.readModels.flatMap((readModel) => readModel.readerDdl ?? []);
}

/**
 * Creates the read schema (normally `read`), every read model's tables and indexes and the projection's
 * checkpoint row. `lean` leaves out what only readers need (`readerStatements`): a rebuild's fresh schema
 * while it replays, which `applyReaderDdl` (rebuild/reader-ddl.ts) completes before it is swapped in.
 */
export async function ensureReadSchema(
  pool: Pool,
  options: { schema: string; projection: Projection; lean?: boolean },
): Promise<void> {
  await inSchema(pool, options.schema, async (sql) => {
    await sql.query(projectionCheckpointsDdl);
    for (const readModel of options.projection.readModels) await sql.query(readModel.ddl);
    if (options.lean !== true) {
      for (const statement of readerStatements(options.projection)) await sql.query(statement);
    }
    await initCheckpoint(sql, options.projection.name);
  });
}

/** Creates the operational schema (normally `projector`) with its dead-letter table. */
export async function ensureOperationsSchema(pool: Pool, options: { schema: string }): Promise<void> {
  await inSchema(pool, options.schema, async (sql) => {
    await sql.query(deadLettersDdl);
  });
}
