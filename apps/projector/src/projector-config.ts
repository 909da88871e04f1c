import { READ_SCHEMA } from '@portal/read-model-core';
import { ConfigError } from '@portal/platform';
import { z } from 'zod';
import { DEFAULT_INDEX_BUILD_MEMORY } from './rebuild/reader-ddl.js';
import { rebuildReplays } from './rebuild/rebuild-replay.js';
import { MERGE_PENDING_LISTS_EVERY_EVENTS } from './pending-lists.js';
import { DEFAULT_RETRY_DELAYS_MS } from './runner.js';

const identifier = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,39}$/, 'a lower-case SQL identifier (letters, digits, _)');

const delayList = z
  .string()
  .regex(/^\d{1,6}(,\d{1,6}){0,9}$/, 'comma-separated milliseconds, e.g. 100,400,1600')
  .transform((text) => text.split(',').map(Number));

/**
 * The projector's own settings, beside the shared ones of `loadConfig()`. The schema names exist so
 * tests (and side-by-side deployments) can keep apart; production keeps the defaults.
 */
const projectorEnvSchema = z.object({
  /** Where the read models and their checkpoint live; the API reads this schema. */
  PROJECTOR_READ_SCHEMA: identifier.default(READ_SCHEMA),
  /** Operational tables (dead letters). */
  PROJECTOR_OPERATIONS_SCHEMA: identifier.default('projector'),
  /** Schema of the PostgreSQL event store (ignored with EventStoreDB). */
  EVENTSTORE_SCHEMA: identifier.default('eventstore'),
  /** Port of the projector's metrics listener (at METRICS_HOST); 0 picks a free one. */
  PROJECTOR_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),
  /**
   * Events between the projector's merges of the read schema's GIN pending lists, on a connection of
   * its own beside the batches (docs/projection.md); 0 leaves them to the inserts, as PostgreSQL does.
   */
  PROJECTOR_MERGE_PENDING_LISTS_EVERY: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(MERGE_PENDING_LISTS_EVERY_EVENTS),
  /** Waits before each retry of a failing handler; then the event is dead-lettered. */
  PROJECTOR_RETRY_DELAYS_MS: delayList.default([...DEFAULT_RETRY_DELAYS_MS]),
  /**
   * `maintenance_work_mem` of a rebuild's session while it builds the reader indexes over the replayed
   * tables (a sort that fits in memory does not spill to disk).
   */
  PROJECTOR_REBUILD_INDEX_MEMORY: z
    .string()
    .regex(/^[1-9]\d{0,6}(kB|MB|GB)$/, 'a PostgreSQL memory size such as 256MB')
    .default(DEFAULT_INDEX_BUILD_MEMORY),
  /**
   * How a rebuild fills its fresh schema up to the head: `copy` folds the history in memory and writes
   * each table once by COPY; `batches` applies it in ordinary batches (docs/projection.md).
   */
  PROJECTOR_REBUILD_MODE: z.enum(rebuildReplays).default('copy'),
});

export type ProjectorConfig = z.infer<typeof projectorEnvSchema>;

export function loadProjectorConfig(env: NodeJS.ProcessEnv = process.env): ProjectorConfig {
  const parsed = projectorEnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}
