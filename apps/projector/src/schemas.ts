import { withSchemaLock, type Pool } from '@portal/platform';
import { deadLettersDdl } from './dead-letters/dead-letters.js';
import {
  initCheckpoint,
  projectionCheckpointsDdl,
  quoteIdentifier,
  type Projection,
  type Sql,
} from '@portal/read-model-core';
import { recordedVersions, recordVersions, schemaIsFilled, versionsMatch } from './read-model-versions.js';

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
 * What `ensureReadSchema` found: no projection yet (`created`), one built at the code's read model versions
 * (`current`, its DDL re-applied, which changes nothing), or one built at other versions, or before versions
 * were recorded (`outdated`): left untouched, for a rebuild (`rebuildOutdatedReadSchema`) to replace.
 */
export type ReadSchemaState = 'created' | 'current' | 'outdated';

/**
 * Creates the read schema (normally `read`), every read model's tables and indexes, the versions they were
 * built with and the projection's checkpoint row. `lean` leaves out what only readers need
 * (`readerStatements`): a rebuild's fresh schema while it replays, which `applyReaderDdl`
 * (rebuild/reader-ddl.ts) completes before it is swapped in. A schema holding a projection of other read
 * model versions is not altered in place (the DDL names every column in its CREATE TABLE and would not add
 * one to an existing table): it is reported `outdated`.
 */
export async function ensureReadSchema(
  pool: Pool,
  options: { schema: string; projection: Projection; lean?: boolean },
): Promise<ReadSchemaState> {
  let state: ReadSchemaState = 'created';
  await inSchema(pool, options.schema, async (sql) => {
    if (await schemaIsFilled(sql, options.schema)) {
      // Filled: what matters is whether its recorded versions are the code's.
      const recorded = await recordedVersions(sql, options.schema);
      if (recorded === null || !versionsMatch(recorded, options.projection)) {
        state = 'outdated';
        return;
      }
      state = 'current';
    }
    await sql.query(projectionCheckpointsDdl);
    for (const readModel of options.projection.readModels) await sql.query(readModel.ddl);
    if (options.lean !== true) {
      for (const statement of readerStatements(options.projection)) await sql.query(statement);
    }
    await recordVersions(sql, options.projection);
    await initCheckpoint(sql, options.projection.name);
  });
  return state;
}

/** Creates the operational schema (normally `projector`) with its dead-letter table. */
export async function ensureOperationsSchema(pool: Pool, options: { schema: string }): Promise<void> {
  await inSchema(pool, options.schema, async (sql) => {
    await sql.query(deadLettersDdl);
  });
}
