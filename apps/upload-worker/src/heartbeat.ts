import type { Redis } from 'ioredis';
import {
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_TTL_SECONDS,
  uploadWorkerHeartbeatKey,
  type Logger,
} from '@portal/platform';

/**
 * Keeps a short-lived Redis key fresh while this worker runs, so the API's `/health/ready` can tell
 * whether any upload worker is alive. The key expires on its own when every worker is gone.
 */
export function startHeartbeat(redis: Redis, logger: Logger, queuePrefix: string): () => Promise<void> {
  const key = uploadWorkerHeartbeatKey(queuePrefix);
  let written: string | null = null;
  const beat = async () => {
    const value = new Date().toISOString();
    try {
      await redis.set(key, value, 'EX', HEARTBEAT_TTL_SECONDS);
      written = value;
    } catch (error) {
      logger.warn({ err: error }, 'heartbeat not written');
    }
  };
  void beat();
  const timer = setInterval(() => void beat(), HEARTBEAT_INTERVAL_MS);
  return async () => {
    clearInterval(timer);
    if (written === null) return;
    // Only this worker's own last beat goes: another worker beating meanwhile keeps the key alive.
    await redis.eval(DELETE_IF_UNCHANGED, 1, key, written).catch(() => undefined);
  };
}

const DELETE_IF_UNCHANGED = `
  if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
  return 0`;
