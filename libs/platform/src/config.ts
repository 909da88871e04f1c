import { z } from 'zod';

/**
 * Every setting comes from the environment and is validated once at boot.
 * A bad value stops start-up with one line naming the variable.
 */
const booleanText = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** `https://app.example.org`: a scheme, a host and an optional port; nothing else (what `Origin` sends). */
const originText = z
  .string()
  .regex(/^https?:\/\/[^/?#\s]+$/, { error: 'each origin must be scheme://host[:port], without a path' });

/** Comma-separated origins; blanks between commas are ignored. */
const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin.length > 0),
  )
  .pipe(z.array(originText));

/**
 * Express's `trust proxy`: `false` (the default: the client is the peer), `true` (any proxy), a hop
 * count, or a comma list of addresses, subnets and names express knows (`loopback`, `10.0.0.0/8`).
 */
const trustProxyText = z.string().transform((value): boolean | number | string[] => {
  const text = value.trim();
  if (text === 'false' || text === '0' || text === '') return false;
  if (text === 'true') return true;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  return text.split(',').map((entry) => entry.trim());
});

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * Address of every process's metrics listener (`GET /metrics`, unauthenticated): keep it private —
   * loopback, or a pod address only the cluster reaches (docs/operations.md).
   */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** The API's metrics port, apart from PORT so the public listener never serves metrics; 0 picks a free one. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** The upload worker's metrics port (the projector's is PROJECTOR_METRICS_PORT). */
  UPLOAD_WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9466),
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
  /** Host clients reach the object store at (presigned URLs); defaults to S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  /** Lifetime of a presigned part URL. SigV4 allows at most 7 days. */
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3_600),
  /** How long a multipart upload may stay open before the worker aborts it and the item expires. */
  UPLOAD_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .default(86_400),
  /** Lifetime of the presigned GET an asset download redirects to. */
  DOWNLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(604_800).default(300),
  /** BullMQ key prefix; separate prefixes keep deployments (or test stacks) sharing a Redis apart. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w.-]{1,64}$/)
    .default('portal'),
  /** Attempts of a completion job before the item is marked failed (transient errors only). */
  UPLOAD_COMPLETE_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** First retry delay of a completion job; it doubles on each attempt. */
  UPLOAD_RETRY_DELAY_MS: z.coerce.number().int().min(10).max(600_000).default(1_000),
  UPLOAD_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  /** A job whose worker stops renewing its lock this long is taken over (a killed worker's job). */
  UPLOAD_JOB_LOCK_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** How often the worker sweeps expired uploads and re-enqueues completions that lost their job. */
  UPLOAD_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** A completion still `processing` after this long without a job is enqueued again by the sweep. */
  UPLOAD_STUCK_AFTER_MS: z.coerce.number().int().min(100).max(86_400_000).default(120_000),
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
  /**
   * HS256 key of the JWTs `/api/auth/token` issues. Required in production (the API refuses to start
   * without it); elsewhere a random key per process is used, with a warning.
   */
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  JWT_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  JWT_ISSUER: z.string().min(1).default('portal-catalog-service'),
  JWT_AUDIENCE: z.string().min(1).default('portal-catalog-service'),
  /** Lifetime of a session (the `session` cookie); sign-out ends it earlier. */
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(365 * 86_400)
    .default(30 * 86_400),
  /** Browser origins allowed to call the API with credentials (CORS) and to send cookie writes (CSRF). */
  CORS_ORIGINS: originList.default([]),
  TRUST_PROXY: trustProxyText.default(false),
  /** Failed sign-ins per email, and per client address, within the window before `429`. */
  SIGN_IN_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10_000).default(10),
  SIGN_IN_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Sign-ups (each a 32 MiB scrypt hash, a user and an organization) per client address in the window. */
  SIGN_UP_MAX_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(20),
  SIGN_UP_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** log2 of scrypt's N for new password hashes (15: 32 MiB); stored hashes keep their own. */
  PASSWORD_SCRYPT_COST: z.coerce.number().int().min(10).max(20).default(15),
  /** `GET /api/v1/events`: a comment line this often keeps proxies and clients from timing the stream out. */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(10).max(300_000).default(15_000),
  /** An SSE client whose unsent bytes pass this is dropped rather than buffered without bound. */
  SSE_MAX_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /** A resume further behind than this many object events gets a `reset` event instead of a replay. */
  SSE_REPLAY_MAX_EVENTS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Streams end after this long so the client reconnects with a fresh credential (JWT lifetime). */
  SSE_MAX_CONNECTION_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(900_000),
  /** Least time between two reads of new events by the feed: the changes of that time share one write per client. */
  SSE_BATCH_INTERVAL_MS: z.coerce.number().int().min(0).max(10_000).default(20),
  /** On SIGTERM the API closes connections still open after this long; keep it below the orchestrator's. */
  API_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(20_000),
  /** Webhooks (docs/webhooks.md): `http://` to a loopback address is accepted (tests, local receivers). */
  WEBHOOK_ALLOW_HTTP_LOOPBACK: booleanText.default(false),
  /** Webhooks may target private networks (RFC 1918, unique-local, CGNAT); loopback and link-local never. */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanText.default(false),
  /** Attempts of one webhook delivery before it counts as failed. */
  WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(8),
  /** First retry delay of a webhook delivery; it doubles on each attempt (capped at one hour). */
  WEBHOOK_RETRY_DELAY_MS: z.coerce.number().int().min(10).max(3_600_000).default(1_000),
  /** An endpoint is disabled after this many failed deliveries in a row (every attempt failed). */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Deliveries one worker process sends at once. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** The dispatcher looks for new audit rows this often, besides waking on each projected batch. */
  WEBHOOK_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
  /**
   * AES-256-GCM key sealing webhook signing secrets at rest: 32 bytes, base64 (`openssl rand -base64 32`).
   * The API and the worker must share it. Required in production; elsewhere a public development key is
   * used, with a warning (`webhookSecretBox`).
   */
  WEBHOOK_SECRET_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=?$/, { error: 'must be 32 bytes in base64 (openssl rand -base64 32)' })
    .optional(),
  /** After a secret rotation the previous secret still signs deliveries for this long. */
  WEBHOOK_SECRET_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(86_400),
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
