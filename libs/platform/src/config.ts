import { z } from 'zod';

/**
 * Every setting comes from the environment and is validated once at boot.
 * A bad value stops start-up with one line naming the variable.
 */
const booleanText = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Absolute base for links the API writes (`https://portal.example.org`); derived from the request when unset. */
  PUBLIC_BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).default('postgres://postgres@127.0.0.1:5432/portal'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
  /** When set, events go to EventStoreDB; otherwise PostgreSQL at DATABASE_URL keeps them. */
  EVENTSTORE_CONNECTION_STRING: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().default('http://127.0.0.1:7480'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).default('portal-dev-access'),
  S3_SECRET_ACCESS_KEY: z.string().min(1).default('portal-dev-secret'),
  S3_BUCKET: z.string().min(3).default('portal-assets'),
  S3_FORCE_PATH_STYLE: booleanText.default(true),
  /** How long a create waits for its own projection, and a read for `X-Min-Position`, before 503. */
  PROJECTION_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(1024 * 1024),
  /** Events per projector transaction. */
  PROJECTOR_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}
