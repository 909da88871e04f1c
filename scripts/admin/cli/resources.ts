import { Redis } from 'ioredis';
import type { EventStore } from '@portal/domain';
import { createEventStore } from '@portal/eventstore';
import { createPool, type Config, type Logger, type Pool } from '@portal/platform';
import { UploadQueue } from '@portal/uploads';
import type { ProjectorConfig } from '../../../apps/projector/src/projector-config.js';
import { unavailable } from './failure.js';

/** How long a Redis command may take before the console reports Redis as unreachable. */
const REDIS_TIMEOUT_MS = 3_000;

class RedisUnreachable extends Error {}

/** ioredis's ways of saying the server is not there. */
function isRedisConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    /Connection is closed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|connect ETIMEDOUT/.test(error.message)
  );
}

/**
 * What the console talks to, each opened on first use and closed at the end: a small PostgreSQL pool
 * (read models, the projector's tables, the event store unless EventStoreDB is configured) and Redis
 * for the upload queue. A command that needs only PostgreSQL never connects to Redis.
 */
export class AdminResources {
  private openedPool: Pool | null = null;
  private openedStore: Promise<EventStore> | null = null;
  private openedQueue: { readonly redis: Redis; readonly queue: UploadQueue } | null = null;

  constructor(
    readonly config: Config,
    readonly projectorConfig: ProjectorConfig,
    readonly log: Logger,
  ) {}

  get pool(): Pool {
    if (!this.openedPool) {
      const pool = createPool({
        connectionString: this.config.DATABASE_URL,
        max: 6,
        applicationName: 'admin',
      });
      pool.on('error', (error) => {
        this.log.warn({ err: error }, 'idle database connection failed');
      });
      this.openedPool = pool;
    }
    return this.openedPool;
  }

  store(): Promise<EventStore> {
    this.openedStore ??= createEventStore({
      databasePool: this.pool,
      eventStoreConnectionString: this.config.EVENTSTORE_CONNECTION_STRING,
      postgres: { schema: this.projectorConfig.EVENTSTORE_SCHEMA },
    });
    return this.openedStore;
  }

  /** The upload queue, on a connection that gives up quickly instead of retrying for ever. */
  get uploadQueue(): UploadQueue {
    if (!this.openedQueue) {
      const redis = new Redis(this.config.REDIS_URL, {
        maxRetriesPerRequest: 1,
        connectTimeout: REDIS_TIMEOUT_MS,
        retryStrategy: (attempt) => (attempt > 2 ? null : 200),
      });
      redis.on('error', (error) => {
        this.log.debug({ err: error }, 'redis connection problem');
      });
      const queue = new UploadQueue(redis, this.config.QUEUE_PREFIX, {
        attempts: this.config.UPLOAD_COMPLETE_ATTEMPTS,
        delayMs: this.config.UPLOAD_RETRY_DELAY_MS,
      });
      queue.queue.on('error', (error) => {
        this.log.debug({ err: error }, 'upload queue problem');
      });
      this.openedQueue = { redis, queue };
    }
    return this.openedQueue.queue;
  }

  /**
   * Runs a Redis call, reporting an unreachable Redis as such (exit 5) rather than hanging or failing
   * obscurely. Other errors pass through.
   */
  async redis<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new RedisUnreachable(`no answer within ${REDIS_TIMEOUT_MS} ms`));
      }, REDIS_TIMEOUT_MS);
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      if (!(error instanceof RedisUnreachable) && !isRedisConnectionError(error)) throw error;
      throw unavailable(
        `cannot reach Redis (REDIS_URL): ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Fails early (exit 5) when Redis cannot be reached, before work that also touches PostgreSQL. */
  async requireRedis(): Promise<void> {
    await this.redis(() => this.uploadQueue.queue.getJobCounts('waiting'));
  }

  async close(): Promise<void> {
    const closing: Promise<unknown>[] = [];
    if (this.openedQueue) {
      const { queue, redis } = this.openedQueue;
      closing.push(
        queue
          .close()
          .catch(() => undefined)
          .then(() => redis.quit())
          .catch(() => {
            redis.disconnect();
          }),
      );
    }
    if (this.openedStore)
      closing.push(this.openedStore.then((store) => store.close()).catch(() => undefined));
    await Promise.allSettled(closing);
    await this.openedPool?.end().catch(() => undefined);
  }
}
