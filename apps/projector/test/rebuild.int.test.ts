import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portalProjection } from '../src/portal-projection.js';
import type { ReadModel } from '@portal/read-model-core';
import { rebuildReadSchema } from '../src/rebuild/rebuild-read-schema.js';
import { dumpReadModel, type ReadModelDump } from './support/dump.js';
import { catalogCreated, streamOf, toAppend } from './support/portal-events.js';
import {
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  waitUntilHeadPasses,
  type ProjectorFixture,
} from './support/projector-fixture.js';
import { startWriter } from './support/background-writer.js';
import { PortalScenario } from './support/scenario.js';
import { dropSchemas, uniqueSchema } from './support/test-database.js';
import { captureLogger } from './support/test-logger.js';
import { waitFor } from './support/wait-for.js';

let fixture: ProjectorFixture;
const extraSchemas: string[] = [];

beforeEach(async () => {
  fixture = await openFixture('rebuild');
});

afterEach(async () => {
  await dropSchemas(fixture.pool, extraSchemas.splice(0));
  await fixture.close();
});

/** The reference: every event projected from START into a schema nobody else touches. */
async function cleanProjection(): Promise<ReadModelDump> {
  const schema = uniqueSchema('prj_clean');
  extraSchemas.push(schema);
  await rebuildReadSchema({
    pool: fixture.pool,
    store: fixture.store,
    projection: portalProjection,
    schema,
    notifyChannel: fixture.channel,
    batchSize: 200,
    log: captureLogger('clean').logger,
  });
  return dumpReadModel(fixture.pool, schema);
}

async function schemaOid(schema: string): Promise<string | undefined> {
  const result = await fixture.pool.query<{ oid: string }>(
    'SELECT oid::text FROM pg_namespace WHERE nspname = $1',
    [schema],
  );
  return result.rows[0]?.oid;
}

describe('rebuild', () => {
  it('swaps in a replayed schema while a live projector runs and writes go on; the live one keeps projecting', async () => {
    // Items too: uploads through every status, assets, extents, items moved and deleted.
    const scenario = new PortalScenario(4242, { items: true });
    await scenario.appendTo(fixture.store, 300);
    const live = startProjector(fixture, { name: 'live', batchSize: 10 });
    await waitUntilCaughtUp(fixture);
    const liveOid = await schemaOid(fixture.readSchema);

    const writer = startWriter(scenario, fixture.store);
    await waitFor('writes to flow', () => Promise.resolve(writer.written() >= 20));
    // A rebuild replays up to the store's head: make sure the head includes the writes counted below.
    await waitUntilHeadPasses(fixture);
    const rebuildLogs = captureLogger('rebuild');
    const result = await rebuildReadSchema({
      pool: fixture.pool,
      store: fixture.store,
      projection: portalProjection,
      schema: fixture.readSchema,
      notifyChannel: fixture.channel,
      batchSize: 25,
      log: rebuildLogs.logger,
    });
    const writtenDuringRebuild = writer.written();
    await waitFor('more writes after the swap', () =>
      Promise.resolve(writer.written() >= writtenDuringRebuild + 20),
    );
    await writer.stop();

    // The live projector noticed the swap and carried on in the new schema.
    const marker = catalogCreated({ title: 'after the rebuild' });
    await fixture.store.append(streamOf(marker), [toAppend(marker)], { expectedRevision: 'no_stream' });
    await waitUntilCaughtUp(fixture);
    await live.stop();

    expect(result.events).toBeGreaterThanOrEqual(320);
    expect(await schemaOid(fixture.readSchema)).not.toBe(liveOid);
    const leftovers = await fixture.pool.query(
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE $1 || '\\_%\\_%'`,
      [fixture.readSchema],
    );
    expect(leftovers.rows).toEqual([]);
    const rebuilt = await dumpReadModel(fixture.pool, fixture.readSchema);
    expect(rebuilt.uploads.length).toBeGreaterThan(20);
    expect(rebuilt.assets.length).toBeGreaterThan(0);
    expect(rebuilt.portalObjects).toContainEqual(
      expect.objectContaining({ id: marker.data.id, title: 'after the rebuild' }),
    );
    expect(rebuilt).toEqual(await cleanProjection());
    // A live projector, a writer and two rebuilds of a 400-event portal with uploads: ~60 s on the shared
    // 2-core CI machine (about a quarter of its CPU stolen by the host), so the default 60 s is too tight.
  }, 180_000);

  it('refuses a second rebuild of the same schema while one runs', async () => {
    await new PortalScenario(99).appendTo(fixture.store, 50);
    await waitUntilHeadPasses(fixture);
    const options = {
      pool: fixture.pool,
      store: fixture.store,
      projection: portalProjection,
      schema: fixture.readSchema,
      notifyChannel: fixture.channel,
      batchSize: 5,
      log: captureLogger('rebuild').logger,
    };
    const results = await Promise.allSettled([rebuildReadSchema(options), rebuildReadSchema(options)]);

    expect(results.map((settled) => settled.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((settled) => settled.status === 'rejected');
    expect(String(refused?.reason)).toContain(`another rebuild of schema ${fixture.readSchema} is running`);
    expect(await dumpReadModel(fixture.pool, fixture.readSchema)).toEqual(await cleanProjection());
  });

  it('leaves the live schema untouched and drops its fresh schema when an event fails to apply', async () => {
    const scenario = new PortalScenario(5);
    await scenario.appendTo(fixture.store, 30);
    const live = startProjector(fixture);
    await waitUntilCaughtUp(fixture);
    await live.stop();
    const before = await dumpReadModel(fixture.pool, fixture.readSchema);
    const liveOid = await schemaOid(fixture.readSchema);
    const poison = catalogCreated({ title: 'poison' });
    await fixture.store.append(streamOf(poison), [toAppend(poison)], { expectedRevision: 'no_stream' });
    // A rebuild replays up to the store's head: make sure the head includes the poison.
    await waitUntilHeadPasses(fixture);
    const failing: ReadModel = {
      name: 'failing',
      version: 1,
      ddl: 'SELECT 1',
      apply: (_sql, event) =>
        (event.data as { title?: string }).title === 'poison'
          ? Promise.reject(new Error('boom'))
          : Promise.resolve(),
    };

    const rebuild = rebuildReadSchema({
      pool: fixture.pool,
      store: fixture.store,
      projection: { name: 'portal', readModels: [...portalProjection.readModels, failing] },
      schema: fixture.readSchema,
      notifyChannel: fixture.channel,
      batchSize: 10,
      log: captureLogger('rebuild').logger,
      stamp: 'failing',
    });

    await expect(rebuild).rejects.toThrow(`failing failed on event`);
    expect(await schemaOid(fixture.readSchema)).toBe(liveOid);
    expect(await schemaOid(`${fixture.readSchema}_rebuild_failing`)).toBeUndefined();
    expect(await dumpReadModel(fixture.pool, fixture.readSchema)).toEqual(before);
  });
});
