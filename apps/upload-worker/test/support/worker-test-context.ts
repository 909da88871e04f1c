import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { comparePositions } from '@portal/domain';
import { ensureEventStoreSchema, PostgresEventStore } from '@portal/eventstore';
import { loadConfig, type Logger, type Pool } from '@portal/platform';
import { S3ObjectStore, s3SettingsOf, UploadQueue } from '@portal/uploads';
import { portalProjection } from '../../../projector/src/portal-projection.js';
import { ensureReadSchema } from '../../../projector/src/schemas.js';
import { applyInSchema } from '../../../projector/test/support/read-model-access.js';
import {
  dropSchemas,
  ensureTestDatabase,
  openTestPool,
  uniqueSchema,
} from '../../../projector/test/support/test-database.js';
import { SweepQueries } from '../../src/sweep-queries.js';
import type { WorkerDependencies } from '../../src/worker-dependencies.js';

/** The services of `source scripts/services/env.sh test`: Ceph S3, Redis database 1. */
export const testConfig = loadConfig();

/** A real pino logger writing into memory, so tests can assert what was (and was not) logged. */
export function captureLogger(name: string): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const echo = process.env.TEST_LOG_LEVEL !== undefined;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        lines.push(line);
        if (echo) process.stderr.write(`${line}\n`);
      }
      callback();
    },
  });
  return { logger: pino({ name, level: process.env.TEST_LOG_LEVEL ?? 'debug' }, stream), lines };
}

export interface UploadRowSummary {
  status: string;
  status_message: string | null;
  expires_at: Date;
  completion_requested_at: Date | null;
}

/**
 * Real PostgreSQL (an event store and a read schema of this file's own, in `portal_test`), real Ceph S3,
 * real Redis under a queue prefix of this file's own: nothing shared with other tests.
 */
export class WorkerTestContext {
  readonly prefix = `test-uw-${randomBytes(4).toString('hex')}`;
  readonly objectStore = new S3ObjectStore(s3SettingsOf(testConfig));
  readonly redis = new Redis(testConfig.REDIS_URL, { maxRetriesPerRequest: null });
  readonly queue: UploadQueue;
  readonly log = captureLogger('upload-worker-test');
  private readonly schemas: string[];

  private constructor(
    readonly pool: Pool,
    readonly eventStore: PostgresEventStore,
    readonly readSchema: string,
  ) {
    this.schemas = [eventStore.schema, readSchema];
    this.queue = new UploadQueue(this.redis, this.prefix, { attempts: 3, delayMs: 50 });
  }

  static async open(): Promise<WorkerTestContext> {
    await ensureTestDatabase();
    const pool = openTestPool('upload-worker-test', 12);
    const eventStoreSchema = uniqueSchema('uw_es');
    await ensureEventStoreSchema(pool, { schema: eventStoreSchema });
    const readSchema = uniqueSchema('uw_read');
    await ensureReadSchema(pool, { schema: readSchema, projection: portalProjection });
    const eventStore = new PostgresEventStore(pool, { schema: eventStoreSchema, pollIntervalMs: 200 });
    return new WorkerTestContext(pool, eventStore, readSchema);
  }

  deps(overrides: Partial<WorkerDependencies> = {}): WorkerDependencies {
    return {
      eventStore: this.eventStore,
      objectStore: this.objectStore,
      queue: this.queue,
      queries: new SweepQueries(this.pool, this.readSchema),
      logger: this.log.logger,
      now: () => new Date(),
      newId: randomUUID,
      stuckAfterMs: 60_000,
      batchSize: 500,
      ...overrides,
    };
  }

  /**
   * Runs the real projector's handlers over the streams' events, in their global order, as a batch would.
   * Handlers are idempotent, so projecting a stream again applies only what is new.
   */
  async project(...streamIds: string[]): Promise<void> {
    const streams = await Promise.all(streamIds.map((streamId) => this.eventStore.readStream(streamId)));
    const events = streams.flat().sort((a, b) => comparePositions(a.position, b.position));
    await applyInSchema(this.pool, this.readSchema, events, this.log.logger);
  }

  async uploadRow(itemId: string): Promise<UploadRowSummary | undefined> {
    const result = await this.pool.query<UploadRowSummary>(
      `SELECT status, status_message, expires_at, completion_requested_at
         FROM "${this.readSchema}".uploads WHERE item_id = $1`,
      [itemId],
    );
    return result.rows[0];
  }

  async dispose(): Promise<void> {
    await this.queue.queue.obliterate({ force: true }).catch(() => undefined);
    await this.queue.close();
    this.redis.disconnect();
    this.objectStore.close();
    await this.eventStore.close();
    await dropSchemas(this.pool, this.schemas);
    await this.pool.end();
  }
}
