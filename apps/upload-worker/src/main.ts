import { Redis } from 'ioredis';
import { createLogger, loadConfig } from '@portal/platform';
import { startHeartbeat } from './heartbeat.js';

const config = loadConfig();
const logger = createLogger({ name: 'upload-worker', level: config.LOG_LEVEL });

// BullMQ needs `maxRetriesPerRequest: null`: its blocking commands must wait for Redis, not fail.
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
redis.on('error', (error) => {
  logger.warn({ err: error }, 'redis connection problem');
});

const stopHeartbeat = startHeartbeat(redis, logger);
logger.info('upload worker running');

async function shutdown(signal: string): Promise<void> {
  logger.info({ signal }, 'shutting down');
  await stopHeartbeat();
  await redis.quit();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
