import type { EventStore, PortalObjectEvent } from '@portal/domain';
import { ensureEventStoreSchema, InMemoryEventStore, PostgresEventStore } from '@portal/eventstore';
import type { Pool } from '@portal/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalProjection } from '../src/portal-projection.js';
import { rebuildReadSchema, type RebuildOptions } from '../src/rebuild/rebuild-read-schema.js';
import { itemRegistered } from './support/item-events.js';
import { catalogCreated, collectionCreated, metadata, streamOf, toAppend } from './support/portal-events.js';
import { dumpReadSchema } from './support/read-schema-dump.js';
import { dropSchemas, ensureTestDatabase, openTestPool, uniqueSchema } from './support/test-database.js';
import { captureLogger } from './support/test-logger.js';

// The copy rebuild folds the history in memory; what it cannot reproduce exactly it does not guess:
// the whole history goes the SQL way instead. (Row-for-row equality with the SQL path on generated
// histories is the equivalence test's.)

let pool: Pool;
const bySql = uniqueSchema('prj_copy_sql');
const byCopy = uniqueSchema('prj_copy_fold');
const eventsSchema = uniqueSchema('prj_copy_events');

beforeAll(async () => {
  await ensureTestDatabase();
  pool = openTestPool('copy-rebuild', 4);
});

afterAll(async () => {
  await dropSchemas(pool, [bySql, byCopy, eventsSchema]);
  await pool.end();
});

/** A catalog, a collection in it, and an item registered there with `datetime`. */
async function historyWithItemAt(datetime: string): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  const catalog = catalogCreated({ title: 'Orthophotos' });
  const collection = collectionCreated({ title: 'Tyrol', parentId: catalog.data.id });
  const item = itemRegistered({
    title: 'Tile 1',
    parentId: collection.data.id,
    metadata: { datetime, bbox: [10, 46, 11, 47] },
  });
  for (const event of [catalog, collection, item] as PortalObjectEvent[]) {
    await store.append(streamOf(event), [toAppend(event)], { expectedRevision: 'no_stream' });
  }
  return store;
}

function rebuild(store: EventStore, schema: string, replay: 'copy' | 'batches'): RebuildOptions {
  return {
    pool,
    store,
    projection: portalProjection,
    schema,
    notifyChannel: uniqueSchema('prj_copy_channel'),
    batchSize: 50,
    log: captureLogger('copy-rebuild').logger,
    replay,
  };
}

describe('copy rebuild', () => {
  it('folds a history it reads exactly, and leaves the rows the SQL rebuild leaves', async () => {
    const store = await historyWithItemAt('2024-06-01T10:30:00.250Z');
    await rebuildReadSchema(rebuild(store, bySql, 'batches'));
    const result = await rebuildReadSchema(rebuild(store, byCopy, 'copy'));

    expect(result.replay).toBe('copy');
    expect(await dumpReadSchema(pool, byCopy)).toEqual(await dumpReadSchema(pool, bySql));
    // The item's footprint was set by a trigger of the copy's own, gone with it.
    const leftOver = await pool.query(
      `SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND NOT t.tgisinternal AND t.tgname LIKE 'copy_rebuild%'
       UNION ALL
       SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = $1 AND p.proname LIKE 'copy_rebuild%'`,
      [byCopy],
    );
    expect(leftOver.rows).toEqual([]);
  });

  it('passes the JSON text of a PostgreSQL store through to the audit trail, and upcast events as read', async () => {
    await ensureEventStoreSchema(pool, { schema: eventsSchema });
    const store = new PostgresEventStore(pool, { schema: eventsSchema });
    // Text COPY escapes (backslashes, line breaks, tabs), quotes, non-ASCII; and numbers JSON prints so.
    const catalog = catalogCreated({ title: 'Line\nbreak \t"quoted" back\\slash ÿ ✓' });
    const collection = collectionCreated({
      title: 'Tyrol',
      parentId: catalog.data.id,
      extent: {
        spatial: { bbox: [[1e21, 0.1, -0, 12345678901234567000]] },
        temporal: { interval: [['2020-01-01T00:00:00Z', null]] },
      },
    });
    // Written before identity: read back upcast, so its data is no longer the stored text.
    const {
      orgId: _org,
      visibility: _visibility,
      createdBy: _creator,
      ...legacy
    } = catalogCreated({ title: 'Old' }).data;
    const old = { type: 'CatalogCreated', data: legacy };
    try {
      await store.append(streamOf(catalog), [toAppend(catalog)], { expectedRevision: 'no_stream' });
      await store.append(streamOf(collection), [toAppend(collection)], { expectedRevision: 'no_stream' });
      await store.append(
        `catalog-${legacy.id}`,
        [toAppend(old, metadata({ schemaVersion: 1, orgId: null }))],
        {
          expectedRevision: 'no_stream',
        },
      );
      await rebuildReadSchema(rebuild(store, bySql, 'batches'));
      const result = await rebuildReadSchema(rebuild(store, byCopy, 'copy'));

      expect(result.replay).toBe('copy');
      const copied = await dumpReadSchema(pool, byCopy);
      expect(copied).toEqual(await dumpReadSchema(pool, bySql));
      expect(JSON.stringify(copied)).toContain('back\\\\slash');
    } finally {
      await store.close();
    }
  });

  it('gives a history with a timestamp it cannot order as PostgreSQL would to the SQL path, whole', async () => {
    // No zone: PostgreSQL reads it in the session's time zone, which the fold does not guess.
    const store = await historyWithItemAt('2024-06-01 10:30:00');
    await rebuildReadSchema(rebuild(store, bySql, 'batches'));
    const logs = captureLogger('copy-rebuild-fallback');
    const result = await rebuildReadSchema({ ...rebuild(store, byCopy, 'copy'), log: logs.logger });

    expect(result.replay).toBe('batches');
    expect(logs.messages()).toContain(
      'rebuild: the history cannot be folded in memory; replaying it in batches instead',
    );
    expect(await dumpReadSchema(pool, byCopy)).toEqual(await dumpReadSchema(pool, bySql));
  });
});
