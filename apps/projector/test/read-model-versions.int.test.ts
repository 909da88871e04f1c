import { InMemoryEventStore } from '@portal/eventstore';
import type { Pool } from '@portal/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalProjection } from '../src/portal-projection.js';
import { rebuildOutdatedReadSchema } from '../src/rebuild/outdated-rebuild.js';
import {
  rebuildReadSchema,
  RebuildNotNeededError,
  type RebuildOptions,
} from '../src/rebuild/rebuild-read-schema.js';
import { dumpReadModel } from './support/dump.js';
import { PortalScenario } from './support/scenario.js';
import { dropSchemas, ensureTestDatabase, openTestPool, uniqueSchema } from './support/test-database.js';
import { captureLogger } from './support/test-logger.js';

// A read schema records the read model versions it was built with; at start the projector rebuilds one
// recorded at other versions (or with no record) instead of altering its tables in place.

let pool: Pool;
const store = new InMemoryEventStore();
const created: string[] = [];
const { logger } = captureLogger('read-model-versions');

beforeAll(async () => {
  await ensureTestDatabase();
  pool = openTestPool('read-model-versions', 6);
  await new PortalScenario(77, { items: true, access: true, identity: true }).appendTo(store, 150);
});

afterAll(async () => {
  await dropSchemas(pool, created);
  await pool.end();
});

function rebuildOptions(schema: string): RebuildOptions {
  return {
    pool,
    store,
    projection: portalProjection,
    schema,
    notifyChannel: uniqueSchema('prj_channel'),
    batchSize: 40,
    log: logger,
  };
}

/** A read schema holding every event of the store, projected at the code's versions. */
async function projectedSchema(prefix: string): Promise<string> {
  const schema = uniqueSchema(prefix);
  created.push(schema);
  await rebuildReadSchema(rebuildOptions(schema));
  return schema;
}

async function schemaOid(schema: string): Promise<string | undefined> {
  const result = await pool.query<{ oid: string }>('SELECT oid::text FROM pg_namespace WHERE nspname = $1', [
    schema,
  ]);
  return result.rows[0]?.oid;
}

async function versions(schema: string): Promise<Record<string, number>> {
  const result = await pool.query<{ name: string; version: number }>(
    `SELECT name, version FROM "${schema}".read_model_versions ORDER BY name`,
  );
  return Object.fromEntries(result.rows.map((row) => [row.name, row.version]));
}

const codeVersions = Object.fromEntries(
  portalProjection.readModels.map((readModel) => [readModel.name, readModel.version]),
);

describe('read model versions at start', () => {
  it('rebuilds a schema recorded at an older version, ending with the rows of a fresh projection', async () => {
    const live = await projectedSchema('prj_versions_old');
    // As a schema of the previous version would be: without the column the current DDL added (and the
    // trigger that keeps it).
    await pool.query(`DROP TRIGGER portal_objects_stac_item_stale ON "${live}".portal_objects`);
    await pool.query(`ALTER TABLE "${live}".portal_objects DROP COLUMN stac_item`);
    await pool.query(
      `UPDATE "${live}".read_model_versions SET version = version - 1 WHERE name = 'portal-objects'`,
    );
    const before = await schemaOid(live);

    await expect(rebuildOutdatedReadSchema(rebuildOptions(live))).resolves.toBe('rebuilt');

    expect(await schemaOid(live)).not.toBe(before);
    expect(await versions(live)).toEqual(codeVersions);
    const fresh = await projectedSchema('prj_versions_fresh');
    const rebuilt = await dumpReadModel(pool, live);
    expect(rebuilt.portalObjects.length).toBeGreaterThan(20);
    expect(rebuilt).toEqual(await dumpReadModel(pool, fresh));
  });

  it('rebuilds a filled schema that records no versions (built before they were recorded)', async () => {
    const live = await projectedSchema('prj_versions_none');
    await pool.query(`DROP TABLE "${live}".read_model_versions`);
    const before = await schemaOid(live);

    await expect(rebuildOutdatedReadSchema(rebuildOptions(live))).resolves.toBe('rebuilt');

    expect(await schemaOid(live)).not.toBe(before);
    expect(await versions(live)).toEqual(codeVersions);
  });

  it('leaves a schema at the current versions in place', async () => {
    const live = await projectedSchema('prj_versions_same');
    const before = await schemaOid(live);
    const rows = await dumpReadModel(pool, live);

    await expect(rebuildOutdatedReadSchema(rebuildOptions(live))).resolves.toBe('current');

    expect(await schemaOid(live)).toBe(before);
    expect(await dumpReadModel(pool, live)).toEqual(rows);
  });

  it('replaces a reader index whose definition changed in place, at the start of a current schema', async () => {
    const live = await projectedSchema('prj_versions_index');
    const textIndex = `(title || ' ' || COALESCE(description, '')) public.gin_trgm_ops`;
    // As the schema of a version that searched the inventory's text through GIN: its index, not today's.
    await pool.query(`DROP INDEX "${live}".portal_objects_text_trigrams`);
    await pool.query(
      `CREATE INDEX portal_objects_text_trgm ON "${live}".portal_objects USING gin (${textIndex}) WHERE deleted_at IS NULL`,
    );
    const rows = await dumpReadModel(pool, live);

    await expect(rebuildOutdatedReadSchema(rebuildOptions(live))).resolves.toBe('current');

    const textIndexes = await pool.query<{ name: string; method: string }>(
      `SELECT c.relname AS name, am.amname AS method
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
        WHERE i.indrelid = $1::regclass AND c.relname LIKE 'portal_objects_text%'`,
      [`"${live}".portal_objects`],
    );
    expect(textIndexes.rows).toEqual([{ name: 'portal_objects_text_trigrams', method: 'gist' }]);
    expect(await dumpReadModel(pool, live)).toEqual(rows);
  });

  it('creates a missing schema at the current versions', async () => {
    const schema = uniqueSchema('prj_versions_new');
    created.push(schema);

    await expect(rebuildOutdatedReadSchema(rebuildOptions(schema))).resolves.toBe('created');

    expect(await versions(schema)).toEqual(codeVersions);
  });

  it('rebuilds once when two instances start on an outdated schema together', async () => {
    const live = await projectedSchema('prj_versions_twice');
    await pool.query(`UPDATE "${live}".read_model_versions SET version = 0 WHERE name = 'identity'`);

    const outcomes = await Promise.all([
      rebuildOutdatedReadSchema(rebuildOptions(live)),
      rebuildOutdatedReadSchema(rebuildOptions(live)),
    ]);

    expect(outcomes.sort()).toEqual(['current', 'rebuilt']);
    expect(await versions(live)).toEqual(codeVersions);
  });

  it('leaves the schema alone when the rebuild is found no longer needed once it holds the lock', async () => {
    const live = await projectedSchema('prj_versions_unneeded');
    const before = await schemaOid(live);

    const rebuild = rebuildReadSchema({ ...rebuildOptions(live), stillNeeded: () => Promise.resolve(false) });

    await expect(rebuild).rejects.toBeInstanceOf(RebuildNotNeededError);
    expect(await schemaOid(live)).toBe(before);
  });
});
