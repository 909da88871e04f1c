import type { Redis } from 'ioredis';
import { comparePositions, formatPosition, type EventStore } from '@portal/domain';
import { uploadWorkerHeartbeatKey, type Pool } from '@portal/platform';
import type { ProjectionWaiter } from '../projection/projection-waiter.js';
import type { ReadinessCheck } from './readiness.js';
import type { ObjectStore } from '@portal/uploads';

export function postgresCheck(pool: Pool): ReadinessCheck {
  return {
    name: 'postgres',
    critical: true,
    check: async () => {
      await pool.query('SELECT 1');
      return { ok: true };
    },
  };
}

/** The event store answers, and how far the projector is behind it. Lag alone does not fail readiness. */
export function eventStoreCheck(store: EventStore, projection: ProjectionWaiter): ReadinessCheck {
  return {
    name: 'eventStore',
    critical: true,
    check: async () => {
      const head = await store.headPosition();
      const checkpoint = projection.current();
      return {
        ok: true,
        detail: {
          head: formatPosition(head),
          projected: formatPosition(checkpoint),
          caughtUp: comparePositions(checkpoint, head) >= 0,
        },
      };
    },
  };
}

export function redisCheck(redis: Redis): ReadinessCheck {
  return {
    name: 'redis',
    critical: false,
    check: async () => {
      await redis.ping();
      return { ok: true };
    },
  };
}

export function uploadWorkerCheck(redis: Redis, queuePrefix: string): ReadinessCheck {
  const key = uploadWorkerHeartbeatKey(queuePrefix);
  return {
    name: 'uploadWorker',
    critical: false,
    check: async () => {
      const beat = await redis.get(key);
      return { ok: beat !== null, detail: { lastHeartbeat: beat } };
    },
  };
}

export function s3Check(objectStore: ObjectStore): ReadinessCheck {
  return {
    name: 's3',
    critical: false,
    check: async () => {
      await objectStore.check();
      return { ok: true, detail: { bucket: objectStore.bucket } };
    },
  };
}
