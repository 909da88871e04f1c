import type { Redis } from 'ioredis';
import {
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_TTL_SECONDS,
  UPLOAD_WORKER_HEARTBEAT_KEY,
  type Logger,
} from '@portal/platform';

/**
 * Keeps a short-lived Redis key fresh while this worker runs, so the API's `/health/ready` can tell
 * whether any upload worker is alive. The key expires on its own when every worker is gone.
 */
export function startHeartbeat(redis: Redis, logger: Logger): () => Promise<void> {
  const beat = async () => {
    try {
      await redis.set(UPLOAD_WORKER_HEARTBEAT_KEY, new Date().toISOString(), 'EX', HEARTBEAT_TTL_SECONDS);
    } catch (error) {
      logger.warn({ err: error }, 'heartbeat not written');
    }
  };
  void beat();
  const timer = setInterval(() => void beat(), HEARTBEAT_INTERVAL_MS);
  return async () => {
    clearInterval(timer);
    await redis.del(UPLOAD_WORKER_HEARTBEAT_KEY).catch(() => undefined);
  };
}
