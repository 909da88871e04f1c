import { comparePositions, formatPosition, parsePosition, START, type RecordedEvent } from '@portal/domain';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advisoryLockKey } from '../src/advisory-lock-key.js';
import { portalProjection } from '../src/portal-projection.js';
import { leadershipName } from '../src/run-projector.js';
import type { Projection, ReadModel } from '@portal/read-model-core';
import { ProjectionHaltedError } from '../src/runner.js';
import { ensureReadSchema } from '../src/schemas.js';
import { dumpPortalObjects } from './support/dump.js';
import { catalogCreated, streamOf, toAppend } from './support/portal-events.js';
import {
  checkpointOf,
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  type ProjectorFixture,
} from './support/projector-fixture.js';
import { PortalScenario } from './support/scenario.js';
import { TEST_DATABASE_URL } from './support/test-database.js';
import { waitFor } from './support/wait-for.js';

let fixture: ProjectorFixture;

beforeEach(async () => {
  fixture = await openFixture('runner');
});

afterEach(async () => {
  await fixture.close();
});

async function appendCatalogs(titles: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const title of titles) {
    const event = catalogCreated({ title });
    await fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision: 'no_stream' });
    ids.push(event.data.id);
  }
  return ids;
}

async function liveTitles(schema = fixture.readSchema): Promise<string[]> {
  const result = await fixture.pool.query<{ title: string }>(
    `SELECT title FROM "${schema}".portal_objects WHERE deleted_at IS NULL ORDER BY title`,
  );
  return result.rows.map((row) => row.title);
}

describe('projection runner', () => {
  it('projects in batches, moves the checkpoint with each and notifies every committed position', async () => {
    const listener = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.query(`LISTEN "${fixture.channel}"`);
    try {
      await new PortalScenario(7).appendTo(fixture.store, 60);
      const projector = startProjector(fixture, { batchSize: 7 });
      const caughtUp = await waitUntilCaughtUp(fixture);
      await waitFor('the last notification', () =>
        Promise.resolve(heard.at(-1) === formatPosition(caughtUp)),
      );
      await projector.stop();

      expect(heard.length).toBeGreaterThanOrEqual(Math.ceil(60 / 7));
      const positions = heard.map((text) => parsePosition(text) ?? START);
      expect(
        positions.every(
          (position, i) => i === 0 || comparePositions(positions[i - 1] ?? START, position) < 0,
        ),
      ).toBe(true);
      expect(projector.logs.messages()).toContain('subscribing from checkpoint');
    } finally {
      await listener.end();
    }
  });

  it("merges the read schema's GIN pending lists beside its batches", async () => {
    await new PortalScenario(7).appendTo(fixture.store, 60);
    const projector = startProjector(fixture, { batchSize: 7, mergePendingListsEvery: 1, logLevel: 'debug' });
    await waitUntilCaughtUp(fixture);
    await projector.stop();

    const merges = projector.logs.lines.filter((line) => line.msg === 'merged the GIN pending lists');
    expect(merges.length).toBeGreaterThan(0);
    expect(merges.some((line) => Number(line.pages) > 0)).toBe(true);
  });

  it('reloads and resubscribes when the checkpoint moves under it (as after a rebuild swap)', async () => {
    await appendCatalogs(['one', 'two']);
    const projector = startProjector(fixture);
    await waitUntilCaughtUp(fixture);

    // Someone else resets the read model (what a swapped-in schema looks like to the live projector).
    await fixture.pool.query(`DELETE FROM "${fixture.readSchema}".portal_objects`);
    await fixture.pool.query(
      `UPDATE "${fixture.readSchema}".projection_checkpoints SET commit_position = -1, prepare_position = -1`,
    );
    await appendCatalogs(['three']);
    await waitUntilCaughtUp(fixture);
    await projector.stop();

    expect(await liveTitles()).toEqual(['one', 'three', 'two']);
    expect(projector.logs.messages()).toContain(
      'checkpoint moved under the projector (rebuild or another instance); reloading',
    );
  });

  it('retries a failing handler, then dead-letters the event, keeps the events before it and halts', async () => {
    let poisonAttempts = 0;
    const poisonous: ReadModel = {
      name: 'poisonous',
      version: 1,
      ddl: 'SELECT 1',
      apply(_sql, event: RecordedEvent) {
        if ((event.data as { title?: string }).title !== 'poison') return Promise.resolve();
        poisonAttempts += 1;
        return Promise.reject(new Error('cannot digest this'));
      },
    };
    const projection: Projection = {
      name: 'portal',
      readModels: [...portalProjection.readModels, poisonous],
    };
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection });
    await appendCatalogs(['good 1', 'good 2', 'good 3']);
    // What this test appended, not headPosition(): any transaction elsewhere in the cluster holds that back.
    const before = fixture.store.lastAppended;
    const poison = catalogCreated({ title: 'poison' });
    await fixture.store.append(streamOf(poison), [toAppend(poison)], { expectedRevision: 'no_stream' });
    await appendCatalogs(['after 1', 'after 2']);

    const projector = startProjector(fixture, { projection, retryDelaysMs: [10, 20, 40] });
    const halted = await projector.done.then(
      () => null,
      (error: unknown) => error,
    );

    expect(halted).toBeInstanceOf(ProjectionHaltedError);
    expect(poisonAttempts).toBe(4);
    expect(formatPosition(await checkpointOf(fixture))).toBe(formatPosition(before));
    expect(await liveTitles()).toEqual(['good 1', 'good 2', 'good 3']);
    const letters = await fixture.pool.query<{
      stream_id: string;
      type: string;
      error: string;
      projection: string;
    }>(`SELECT projection, stream_id, type, error FROM "${fixture.operationsSchema}".dead_letters`);
    expect(letters.rows).toEqual([
      {
        projection: 'portal',
        stream_id: streamOf(poison),
        type: 'CatalogCreated',
        error: 'poisonous: cannot digest this',
      },
    ]);
    const errors = projector.logs.lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(String(errors[0]?.msg)).toMatch(
      new RegExp(`projection halted on event .* \\(CatalogCreated, stream ${streamOf(poison)}@0`),
    );
    expect(String(errors[0]?.msg)).toContain('cannot digest this');
    expect(
      projector.logs.lines.filter((line) => line.msg === 'handler failed; retrying the batch'),
    ).toHaveLength(3);
  });

  it('applies a batch whose run fails event by event, so the dead letter names the poison event', async () => {
    const isPoison = (event: RecordedEvent): boolean => (event.data as { title?: string }).title === 'poison';
    const poisonous: ReadModel = {
      name: 'poisonous',
      version: 1,
      ddl: 'SELECT 1',
      apply: (_sql, event) =>
        isPoison(event) ? Promise.reject(new Error('cannot digest this')) : Promise.resolve(),
      sets: {
        footprint: () => ({}),
        // A real failed statement: the transaction is aborted, as a failing set statement leaves it.
        applyRun: async (sql, events) => {
          if (events.some(isPoison)) await sql.query('SELECT 1 / 0');
        },
      },
    };
    const projection: Projection = {
      name: 'portal',
      readModels: [...portalProjection.readModels, poisonous],
    };
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection });
    await appendCatalogs(['good 1', 'good 2', 'good 3']);
    const before = fixture.store.lastAppended;
    const poison = catalogCreated({ title: 'poison' });
    await fixture.store.append(streamOf(poison), [toAppend(poison)], { expectedRevision: 'no_stream' });
    await appendCatalogs(['after 1']);

    const projector = startProjector(fixture, { projection, batchSize: 50, retryDelaysMs: [10] });
    const halted = await projector.done.then(
      () => null,
      (error: unknown) => error,
    );

    expect(halted).toBeInstanceOf(ProjectionHaltedError);
    expect(formatPosition(await checkpointOf(fixture))).toBe(formatPosition(before));
    expect(await liveTitles()).toEqual(['good 1', 'good 2', 'good 3']);
    const letters = await fixture.pool.query<{ stream_id: string; error: string }>(
      `SELECT stream_id, error FROM "${fixture.operationsSchema}".dead_letters`,
    );
    expect(letters.rows).toEqual([{ stream_id: streamOf(poison), error: 'poisonous: cannot digest this' }]);
    expect(projector.logs.messages()).toContain(
      'a run of the batch failed; applying the batch again event by event',
    );
  });

  it('stops on its signal after the current batch and releases the advisory lock', async () => {
    await appendCatalogs(['a', 'b']);
    const projector = startProjector(fixture);
    await waitUntilCaughtUp(fixture);
    const key = advisoryLockKey(leadershipName('portal', fixture.readSchema));
    const held = async (): Promise<boolean> => {
      const locks = await fixture.pool.query(
        `SELECT 1 FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [key.namespace, key.id],
      );
      return locks.rowCount === 1;
    };
    const whileRunning = await held();
    await projector.stop();
    expect(whileRunning).toBe(true);
    expect(await held()).toBe(false);
    expect(projector.logs.messages()).toContain('released the projection lock');
    expect(formatPosition(await checkpointOf(fixture))).not.toBe(formatPosition(START));
    expect(await dumpPortalObjects(fixture.pool, fixture.readSchema)).toHaveLength(2);
  });
});
