import { formatPosition, type RecordedEvent } from '@portal/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeadLetters } from '../src/dead-letters/dead-letter-queries.js';
import {
  DeadLetterRefusal,
  retryDeadLetter,
  skipDeadLetter,
  type DeadLetterDesk,
} from '../src/dead-letters/resolve-dead-letter.js';
import { findLeader } from '../src/leadership.js';
import { portalProjection } from '../src/portal-projection.js';
import type { Projection, ReadModel } from '@portal/read-model-core';
import { rebuildReadSchema } from '../src/rebuild/rebuild-read-schema.js';
import { leadershipName } from '../src/run-projector.js';
import { ensureReadSchema } from '../src/schemas.js';
import { catalogCreated, streamOf, toAppend } from './support/portal-events.js';
import {
  checkpointOf,
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  waitUntilHeadPasses,
  type ProjectorFixture,
} from './support/projector-fixture.js';
import { captureLogger } from './support/test-logger.js';

let fixture: ProjectorFixture;

beforeEach(async () => {
  fixture = await openFixture('dead-letters');
});

afterEach(async () => {
  await fixture.close();
});

/** Fails on catalogs titled `poison …` until the title is in `cured`: a handler bug and its fix. */
function poisonousProjection(cured: Set<string>): Projection {
  const poisonous: ReadModel = {
    name: 'poisonous',
    version: 1,
    ddl: 'SELECT 1',
    apply(_sql, event: RecordedEvent) {
      const title = (event.data as { title?: string }).title ?? '';
      if (!title.startsWith('poison') || cured.has(title)) return Promise.resolve();
      return Promise.reject(new Error(`cannot digest ${title}`));
    },
  };
  return { name: 'portal', readModels: [...portalProjection.readModels, poisonous] };
}

async function appendCatalogs(titles: readonly string[]): Promise<void> {
  for (const title of titles) {
    const event = catalogCreated({ title });
    await fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision: 'no_stream' });
  }
}

async function liveTitles(schema = fixture.readSchema): Promise<string[]> {
  const result = await fixture.pool.query<{ title: string }>(
    `SELECT title FROM "${schema}".portal_objects WHERE deleted_at IS NULL ORDER BY title`,
  );
  return result.rows.map((row) => row.title);
}

/** Runs the projector until it halts on a poison event (it throws then). */
async function projectUntilHalted(projection: Projection): Promise<void> {
  const projector = startProjector(fixture, { projection, retryDelaysMs: [5] });
  await expect(projector.done).rejects.toThrow(/projection halted/);
}

function deskOf(projection: Projection): DeadLetterDesk {
  return {
    pool: fixture.pool,
    store: fixture.store,
    projection,
    schema: fixture.readSchema,
    operationsSchema: fixture.operationsSchema,
    notifyChannel: fixture.channel,
    log: captureLogger('desk').logger,
  };
}

async function openLetters(projection: Projection) {
  const letters = await listDeadLetters(
    fixture.pool,
    { operationsSchema: fixture.operationsSchema, projection: projection.name },
    await checkpointOf(fixture),
    100,
  );
  return letters;
}

async function refusalOf(work: Promise<unknown>): Promise<DeadLetterRefusal> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DeadLetterRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('resolving dead letters', () => {
  it('retries after a fix: the event is applied with its checkpoint and the resolution is recorded', async () => {
    const cured = new Set<string>();
    const projection = poisonousProjection(cured);
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection });
    await appendCatalogs(['good', 'poison one', 'after']);
    await projectUntilHalted(projection);
    const [letter] = await openLetters(projection);
    expect(letter).toMatchObject({ type: 'CatalogCreated', state: 'open', resolution: null });
    const desk = deskOf(projection);
    const stoppedAt = await checkpointOf(fixture);

    const failed = await refusalOf(retryDeadLetter(desk, letter?.id ?? '', 'ops@test'));
    expect(failed.code).toBe('FAILED');
    expect(failed.message).toContain('poisonous: cannot digest poison one');
    expect(formatPosition(await checkpointOf(fixture))).toBe(formatPosition(stoppedAt));

    cured.add('poison one');
    const decision = await retryDeadLetter(desk, letter?.id ?? '', 'ops@test');
    expect(decision.action).toBe('applied');
    expect(formatPosition(decision.checkpoint)).toBe(letter?.position);
    expect(await liveTitles()).toEqual(['good', 'poison one']);
    const [resolved] = await openLetters(projection);
    expect(resolved).toMatchObject({
      state: 'applied',
      resolution: { action: 'applied', operator: 'ops@test' },
    });
    expect((await refusalOf(retryDeadLetter(desk, letter?.id ?? '', 'ops@test'))).code).toBe('RESOLVED');
    expect((await refusalOf(retryDeadLetter(desk, '999999', 'ops@test'))).code).toBe('NOT_FOUND');

    const projector = startProjector(fixture, { projection });
    await waitUntilCaughtUp(fixture);
    await projector.stop();
    expect(await liveTitles()).toEqual(['after', 'good', 'poison one']);
  });

  it('skips with a reason: the projection passes over the event, and so does every rebuild', async () => {
    const projection = poisonousProjection(new Set());
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection });
    await appendCatalogs(['good', 'poison forever', 'after']);
    await projectUntilHalted(projection);
    const [letter] = await openLetters(projection);
    const desk = deskOf(projection);
    await expect(
      skipDeadLetter(desk, letter?.id ?? '', { operator: 'ops@test', reason: '  ' }),
    ).rejects.toThrow(/needs a reason/);

    const decision = await skipDeadLetter(desk, letter?.id ?? '', {
      operator: 'ops@test',
      reason: 'a malformed import; the catalog is created again by hand',
    });
    expect(decision.action).toBe('skipped');
    expect(formatPosition(await checkpointOf(fixture))).toBe(letter?.position);
    const [skipped] = await openLetters(projection);
    expect(skipped).toMatchObject({
      state: 'skipped',
      resolution: { action: 'skipped', reason: 'a malformed import; the catalog is created again by hand' },
    });

    const projector = startProjector(fixture, { projection });
    await waitUntilCaughtUp(fixture);
    const leader = await findLeader(fixture.pool, leadershipName('portal', fixture.readSchema));
    expect(leader?.pid).toEqual(expect.any(Number));
    await projector.stop();
    expect(await findLeader(fixture.pool, leadershipName('portal', fixture.readSchema))).toBeNull();
    expect(await liveTitles()).toEqual(['after', 'good']);

    await waitUntilHeadPasses(fixture);
    const rebuildOptions = {
      pool: fixture.pool,
      store: fixture.store,
      projection,
      schema: fixture.readSchema,
      notifyChannel: fixture.channel,
      batchSize: 2,
      log: captureLogger('rebuild').logger,
    };
    // Without the operator's skips the rebuild meets the poison event again, and leaves the live schema.
    await expect(rebuildReadSchema(rebuildOptions)).rejects.toThrow(/cannot digest poison forever/);
    expect(await liveTitles()).toEqual(['after', 'good']);
    const progress: string[] = [];
    const result = await rebuildReadSchema({
      ...rebuildOptions,
      operationsSchema: fixture.operationsSchema,
      onProgress: (step) => progress.push(`${step.phase}:${step.events}`),
    });
    expect(result.events).toBe(3);
    expect(await liveTitles()).toEqual(['after', 'good']);
    expect(progress.filter((step) => step.startsWith('replaying')).at(-1)).toBe('replaying:3');
    expect(progress.at(-1)).toBe('swapping:3');
  });

  it('refuses a dead letter the projection does not stand right before', async () => {
    const cured = new Set<string>();
    const projection = poisonousProjection(cured);
    await ensureReadSchema(fixture.pool, { schema: fixture.readSchema, projection });
    await appendCatalogs(['poison early', 'between']);
    await projectUntilHalted(projection);
    cured.add('poison early');
    // The fix deployed and the projector restarted: it applies the event itself and goes on.
    const projector = startProjector(fixture, { projection });
    await waitUntilCaughtUp(fixture);
    await projector.stop();
    const [letter] = await openLetters(projection);
    expect(letter?.state).toBe('passed');
    const refusal = await refusalOf(
      skipDeadLetter(deskOf(projection), letter?.id ?? '', { operator: 'ops@test', reason: 'late' }),
    );
    expect(refusal.code).toBe('NOT_NEXT');
    expect(refusal.message).toContain('already past its event');
  });
});
