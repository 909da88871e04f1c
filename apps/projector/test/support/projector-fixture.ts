import {
  comparePositions,
  formatPosition,
  START,
  type AppendOutcome,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeAllOptions,
} from '@portal/domain';
import { ensureEventStoreSchema, PostgresEventStore } from '@portal/eventstore';
import type { Pool } from '@portal/platform';
import { portalProjection } from '../../src/portal-projection.js';
import type { Projection } from '@portal/read-model-core';
import { readCheckpoint } from '@portal/read-model-core';
import { runProjector, type ProjectorOptions } from '../../src/run-projector.js';
import { ensureOperationsSchema, ensureReadSchema } from '../../src/schemas.js';
import { dropSchemas, ensureTestDatabase, openTestPool, uniqueSchema } from './test-database.js';
import { captureLogger, type CapturedLogger } from './test-logger.js';
import { waitFor } from './wait-for.js';

/**
 * The PostgreSQL store, remembering the newest position it appended. `headPosition()` only reports what
 * a subscriber may read now (an older append still open holds the barrier back), so "caught up" in a
 * test means: past everything this test appended.
 */
export class RecordingEventStore implements EventStore {
  lastAppended: Position = START;

  constructor(readonly inner: PostgresEventStore) {}

  async append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { readonly expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const result = await this.inner.append(streamId, events, options);
    if (comparePositions(result.position, this.lastAppended) > 0) this.lastAppended = result.position;
    return result;
  }

  async appendMany(appends: readonly StreamAppend[]): Promise<readonly AppendOutcome[]> {
    const outcomes = await this.inner.appendMany(appends);
    for (const outcome of outcomes) {
      if (outcome.ok && comparePositions(outcome.result.position, this.lastAppended) > 0) {
        this.lastAppended = outcome.result.position;
      }
    }
    return outcomes;
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<readonly RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  streamRevision(streamId: string): Promise<bigint | null> {
    return this.inner.streamRevision(streamId);
  }

  syncPosition(signal?: AbortSignal): Promise<Position> {
    return this.inner.syncPosition(signal);
  }

  subscribeAll(options: SubscribeAllOptions): AsyncIterable<readonly RecordedEvent[]> {
    return this.inner.subscribeAll(options);
  }

  headPosition(): Promise<Position> {
    return this.inner.headPosition();
  }

  lastWrittenPosition(): Promise<Position> {
    return this.inner.lastWrittenPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** One test's world: its own event-store, read and operations schemas in the test database. */
export interface ProjectorFixture {
  readonly pool: Pool;
  readonly store: RecordingEventStore;
  readonly eventsSchema: string;
  readonly readSchema: string;
  readonly operationsSchema: string;
  /** A notify channel of its own, so tests never hear each other. */
  readonly channel: string;
  close(): Promise<void>;
}

export async function openFixture(
  name: string,
  projection: Projection = portalProjection,
): Promise<ProjectorFixture> {
  await ensureTestDatabase();
  const pool = openTestPool(`${name}-fixture`, 12);
  const eventsSchema = uniqueSchema('prj_es');
  const readSchema = uniqueSchema('prj_read');
  const operationsSchema = uniqueSchema('prj_ops');
  await ensureEventStoreSchema(pool, { schema: eventsSchema });
  await ensureReadSchema(pool, { schema: readSchema, projection });
  await ensureOperationsSchema(pool, { schema: operationsSchema });
  const store = new RecordingEventStore(
    new PostgresEventStore(pool, { schema: eventsSchema, pollIntervalMs: 100 }),
  );
  return {
    pool,
    store,
    eventsSchema,
    readSchema,
    operationsSchema,
    channel: uniqueSchema('prj_portal_projection'),
    async close() {
      await store.close();
      await dropSchemas(pool, [eventsSchema, readSchema, operationsSchema]);
      await pool.end();
    },
  };
}

export interface RunningProjector {
  readonly logs: CapturedLogger;
  /** Settles when `runProjector` returns or throws. */
  readonly done: Promise<void>;
  /** Aborts and waits for the projector to finish its batch and release its lock. */
  stop(): Promise<void>;
}

export function startProjector(
  fixture: ProjectorFixture,
  overrides: Partial<Omit<ProjectorOptions, 'signal' | 'log'>> & { name?: string; logLevel?: string } = {},
): RunningProjector {
  const controller = new AbortController();
  const logs = captureLogger(overrides.name ?? 'projector-test', overrides.logLevel);
  const done = runProjector({
    pool: fixture.pool,
    store: fixture.store,
    projection: portalProjection,
    schema: fixture.readSchema,
    operationsSchema: fixture.operationsSchema,
    notifyChannel: fixture.channel,
    batchSize: 50,
    retryDelaysMs: [10, 20, 40],
    ...overrides,
    log: logs.logger,
    signal: controller.signal,
  });
  done.catch(() => undefined);
  return {
    logs,
    done,
    async stop() {
      controller.abort();
      await done.catch(() => undefined);
    },
  };
}

export function checkpointOf(fixture: ProjectorFixture, schema = fixture.readSchema): Promise<Position> {
  return readCheckpoint(fixture.pool, { schema, name: portalProjection.name });
}

/** Waits until the read schema's checkpoint has passed every event the test appended. */
export async function waitUntilCaughtUp(
  fixture: ProjectorFixture,
  options: { schema?: string; timeoutMs?: number } = {},
): Promise<Position> {
  const head = fixture.store.lastAppended;
  return waitFor(
    `checkpoint to reach ${formatPosition(head)}`,
    async () => {
      const checkpoint = await checkpointOf(fixture, options.schema);
      return comparePositions(checkpoint, head) >= 0 ? checkpoint : undefined;
    },
    { timeoutMs: options.timeoutMs ?? 30_000 },
  );
}

/**
 * Waits until the store's head (what a subscriber or a rebuild may read now) has passed `position`,
 * by default everything the test appended: any transaction elsewhere in the cluster holds it back.
 */
export async function waitUntilHeadPasses(
  fixture: ProjectorFixture,
  position: Position = fixture.store.lastAppended,
): Promise<void> {
  await waitFor(`store head to reach ${formatPosition(position)}`, async () => {
    const head = await fixture.store.headPosition();
    return comparePositions(head, position) >= 0;
  });
}
