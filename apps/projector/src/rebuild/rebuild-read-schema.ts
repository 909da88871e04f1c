import { formatPosition, START, type EventStore, type Position, type RecordedEvent } from '@portal/domain';
import { inTransaction, withClient, type Logger, type Pool, type PoolClient } from '@portal/platform';
import { advisoryLockKey, type AdvisoryLockKey } from '../advisory-lock-key.js';
import { applyBatch, applyBatchInOpenTransaction, notifyPosition, type BatchOutcome } from '../batch.js';
import { skippedEventIds } from '../dead-letters/dead-letter-queries.js';
import type { Sql, Projection } from '@portal/read-model-core';
import { ensureReadSchema } from '../schemas.js';
import { quoteIdentifier } from '@portal/read-model-core';
import { ReadSchemaStatistics } from '../statistics.js';
import { analyzeSideBySide } from './analyze-side-by-side.js';
import { copyReplay, foldsProjection } from './copy/copy-replay.js';
import { UnfoldableHistoryError } from './copy/unfoldable.js';
import {
  applyReaderDdl,
  READER_DDL_CONNECTIONS,
  type ReaderDdlProgress,
  type StatementTime,
} from './reader-ddl.js';
import { replayUntil } from './replay.js';
import type { RebuildReplay } from './rebuild-replay.js';

export interface RebuildOptions {
  readonly pool: Pool;
  readonly store: EventStore;
  readonly projection: Projection;
  /** The live read schema to replace: `read`, or a test's own. Created when it does not exist yet. */
  readonly schema: string;
  readonly notifyChannel: string;
  readonly batchSize: number;
  readonly log: Logger;
  /** Suffix of the temporary schema names; defaults to `Date.now()`. */
  readonly stamp?: string;
  /**
   * The operations schema (`projector`): events the operator skipped there are passed over, as the live
   * projection passed over them, so the rebuild gives the same read models. Left out, every event is
   * applied (and a skipped poison event fails the rebuild).
   */
  readonly operationsSchema?: string;
  /** Told after each replayed batch, before each reader statement, and as the ANALYZE and the swap begin. */
  readonly onProgress?: (progress: RebuildProgress) => void;
  /**
   * When the indexes and triggers only readers need are made: `after-replay` (the default, a lean
   * rebuild: the replay maintains only the indexes the projector's statements use) or `before-replay`
   * (the fresh schema gets the whole DDL first, as a live one has; kept to measure the difference).
   */
  readonly readerIndexes?: 'after-replay' | 'before-replay';
  /** `maintenance_work_mem` while the reader indexes are built after the replay; `DEFAULT_INDEX_BUILD_MEMORY`. */
  readonly indexBuildMemory?: string;
  /**
   * `copy` (the default) or `batches`. A copy replay needs a lean rebuild (its tables are written
   * without the reader indexes and triggers) and the portal's read models, exactly (what the fold
   * reproduces): otherwise it replays in batches.
   */
  readonly replay?: RebuildReplay;
  /** Events per page a copy replay folds at a time; `COPY_REPLAY_PAGE_SIZE` by default. */
  readonly copyPageSize?: number;
  /**
   * Asked once this rebuild holds the schema's rebuild lock: `false` ends it there, rejecting with
   * `RebuildNotNeededError` (another process's rebuild, finished just before, already did what was asked).
   */
  readonly stillNeeded?: () => Promise<boolean>;
}

export interface RebuildProgress {
  /**
   * `replaying` into the fresh schema, batch by batch; `indexing`: making the reader indexes and triggers
   * (a lean rebuild, statement by statement, `readerDdl`); `analyzing` the filled tables; `swapping`:
   * catching up the rest and swapping in.
   */
  readonly phase: 'replaying' | 'indexing' | 'analyzing' | 'swapping';
  /** Events replayed so far. */
  readonly events: number;
  /** The position replayed to. */
  readonly position: Position;
  /** The head when the rebuild began: `replaying` ends there. */
  readonly until: Position;
  /** In phase `indexing`: the reader statements applied so far. */
  readonly readerDdl?: ReaderDdlProgress;
}

export interface RebuildResult {
  /** How the fresh schema was filled up to the head: `copy` unless asked otherwise or fallen back. */
  readonly replay: RebuildReplay;
  readonly position: Position;
  readonly events: number;
  readonly durationMs: number;
  /** Where the time went: the replay, the reader indexes and triggers (0 unless lean), ANALYZE, the swap. */
  readonly phasesMs: {
    readonly replay: number;
    readonly readerDdl: number;
    readonly analyze: number;
    readonly swap: number;
  };
  /** Each reader statement's time, in the order they began (several ran at once); empty unless lean. */
  readonly readerStatementsMs: readonly StatementTime[];
}

/** `RebuildOptions.stillNeeded` said no once the lock was taken: nothing was rebuilt. */
export class RebuildNotNeededError extends Error {
  override readonly name = 'RebuildNotNeededError';
  constructor(schema: string) {
    super(`the rebuild of schema ${schema} is no longer needed`);
  }
}

/** Another rebuild of the same schema holds its lock: one at a time. */
export class RebuildInProgressError extends Error {
  override readonly name = 'RebuildInProgressError';
  constructor(schema: string) {
    super(`another rebuild of schema ${schema} is running`);
  }
}

interface SchemaNames {
  readonly fresh: string;
  readonly old: string;
}

/** The advisory lock one rebuild of `schema` holds while it runs. */
export function rebuildLockKey(projection: Projection, schema: string): AdvisoryLockKey {
  return advisoryLockKey(`rebuild:${projection.name}:${schema}`);
}

function appliedPosition(outcome: BatchOutcome): Position {
  // Nobody else writes the fresh schema, so its checkpoint can only be where the rebuild left it.
  if (outcome.kind === 'checkpoint-moved') {
    throw new Error(`rebuild checkpoint moved unexpectedly to ${formatPosition(outcome.found)}`);
  }
  return outcome.position;
}

async function schemaExists(client: PoolClient, schema: string): Promise<boolean> {
  const result = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  return result.rowCount === 1;
}

/**
 * Replays every event into a fresh schema and swaps it in for `schema` while the API keeps reading and
 * the live projector keeps running:
 * 1. `<schema>_rebuild_<stamp>` gets the DDL and every event up to the store's head, batch by batch; a
 *    lean rebuild (the default) creates only what the projector needs to apply events, and then the
 *    indexes and triggers only readers need (with more `maintenance_work_mem`); then ANALYZE;
 * 2. what was written meanwhile is applied in ordinary batches; then one transaction locks the live
 *    checkpoint table (the live projector's next batch waits), catches up the rest, renames live →
 *    `<schema>_old_<stamp>` and fresh → `<schema>`, notifies, commits;
 * 3. the old schema is dropped. The live projector then finds a checkpoint it did not write and resubscribes.
 * Only one rebuild per schema runs at a time; a failed one drops its fresh schema and leaves the live one alone.
 */
export async function rebuildReadSchema(options: RebuildOptions): Promise<RebuildResult> {
  const { pool, schema } = options;
  const stamp = options.stamp ?? String(Date.now());
  const names: SchemaNames = { fresh: `${schema}_rebuild_${stamp}`, old: `${schema}_old_${stamp}` };
  const key = rebuildLockKey(options.projection, schema);
  return withClient(pool, async (guard) => {
    const locked = await guard.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
      key.namespace,
      key.id,
    ]);
    if (locked.rows[0]?.locked !== true) throw new RebuildInProgressError(schema);
    try {
      if (options.stillNeeded && !(await options.stillNeeded())) throw new RebuildNotNeededError(schema);
      return await rebuildInto(options, names);
    } catch (error) {
      await pool
        .query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(names.fresh)} CASCADE`)
        .catch(() => undefined);
      throw error;
    } finally {
      await guard.query('SELECT pg_advisory_unlock($1, $2)', [key.namespace, key.id]).catch(() => undefined);
    }
  });
}

/** The events the operator skipped, when the options name where they are recorded. */
async function skippedEvents(sql: Sql, options: RebuildOptions): Promise<{ passOver?: ReadonlySet<string> }> {
  if (options.operationsSchema === undefined) return {};
  const source = { operationsSchema: options.operationsSchema, projection: options.projection.name };
  return { passOver: await skippedEventIds(sql, source) };
}

/** The options of the batches that fill a fresh schema, as the runner's batches would apply them. */
async function freshTarget(options: RebuildOptions, names: SchemaNames, statistics: ReadSchemaStatistics) {
  return {
    projection: options.projection,
    schema: names.fresh,
    // No notifications while filling: nobody reads this schema yet.
    notifyChannel: null,
    log: options.log,
    customPlans: () => statistics.customPlans(),
    ...(await skippedEvents(options.pool, options)),
  };
}

interface Replayed {
  readonly replay: RebuildReplay;
  readonly events: number;
  readonly position: Position;
  /** Indexes the replay left to build with the reader indexes (a copy replay's, of `portal_objects`). */
  readonly indexesToBuild?: readonly string[];
}

/** Every event up to `until` into the fresh schema, in ordinary batches. */
async function replayInBatches(
  options: RebuildOptions,
  names: SchemaNames,
  statistics: ReadSchemaStatistics,
  until: Position,
  counted: { events: number },
): Promise<Replayed> {
  const target = await freshTarget(options, names, statistics);
  const replayed = await replayUntil(
    options.store,
    { after: START, until, batchSize: options.batchSize },
    async (batch, expected) => {
      const position = appliedPosition(await applyBatch(options.pool, target, batch, expected));
      await statistics.eventsApplied(batch.length);
      counted.events += batch.length;
      options.onProgress?.({ phase: 'replaying', events: counted.events, position, until });
      return position;
    },
  );
  return { replay: 'batches', ...replayed };
}

/**
 * Every event up to `until` folded in memory and copied into the fresh schema; a history the fold
 * cannot reproduce exactly goes the SQL way instead, whole, into the schema made again from scratch.
 */
async function replayByCopy(
  options: RebuildOptions,
  names: SchemaNames,
  statistics: ReadSchemaStatistics,
  until: Position,
  counted: { events: number },
): Promise<Replayed> {
  const { pool, log, onProgress } = options;
  try {
    const skipped = await skippedEvents(pool, options);
    const copied = await copyReplay({
      pool,
      store: options.store,
      schema: names.fresh,
      projectionName: options.projection.name,
      until,
      ...(skipped.passOver === undefined ? {} : { passOver: skipped.passOver }),
      ...(options.copyPageSize === undefined ? {} : { pageSize: options.copyPageSize }),
      log,
      onPage: (events, position) => onProgress?.({ phase: 'replaying', events, position, until }),
    });
    log.info({ events: copied.events, phasesMs: copied.phasesMs }, 'rebuild: history copied');
    return {
      replay: 'copy',
      events: copied.events,
      position: copied.position,
      indexesToBuild: copied.indexesToBuild,
    };
  } catch (error) {
    if (!(error instanceof UnfoldableHistoryError)) throw error;
    log.warn(
      { eventId: error.eventId, reason: error.message },
      'rebuild: the history cannot be folded in memory; replaying it in batches instead',
    );
    await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(names.fresh)} CASCADE`);
    await ensureReadSchema(pool, { schema: names.fresh, projection: options.projection, lean: true });
    await statistics.analyzeIfNever();
    return replayInBatches(options, names, statistics, until, counted);
  }
}

function slowestFirst(times: readonly StatementTime[]): StatementTime[] {
  return [...times].sort((a, b) => b.ms - a.ms);
}

async function rebuildInto(options: RebuildOptions, names: SchemaNames): Promise<RebuildResult> {
  const { pool, store, projection, schema, log, onProgress } = options;
  const startedAt = performance.now();
  const lean = options.readerIndexes !== 'before-replay';
  // The fold reproduces the portal's read models only; any other projection replays in batches.
  const byCopy = lean && (options.replay ?? 'copy') === 'copy' && foldsProjection(projection);
  await ensureReadSchema(pool, { schema: names.fresh, projection, lean });
  log.info({ schema: names.fresh, lean, byCopy }, 'rebuild: replaying every event into a fresh schema');
  // Analyzed as it grows, so the prepared statements plan on statistics of its size.
  const statistics = new ReadSchemaStatistics(pool, names.fresh, log);
  await statistics.analyzeIfNever();
  const until = await store.headPosition();
  const counted = { events: 0 };
  const replayed = byCopy
    ? await replayByCopy(options, names, statistics, until, counted)
    : await replayInBatches(options, names, statistics, until, counted);
  const target = await freshTarget(options, names, statistics);
  const applyReplayed = async (batch: readonly RecordedEvent[], expected: Position): Promise<Position> => {
    const position = appliedPosition(await applyBatch(pool, target, batch, expected));
    await statistics.eventsApplied(batch.length);
    return position;
  };
  const reached = { events: replayed.events, position: replayed.position, until };
  const replayedAt = performance.now();
  log.info(
    { events: replayed.events, position: formatPosition(replayed.position), lean },
    lean ? 'rebuild: reached head; building the reader indexes and triggers' : 'rebuild: reached head',
  );
  let readerStatementsMs: readonly StatementTime[] = [];
  if (lean) {
    readerStatementsMs = await applyReaderDdl(pool, {
      schema: names.fresh,
      projection,
      ...(options.indexBuildMemory === undefined ? {} : { memory: options.indexBuildMemory }),
      ...(replayed.indexesToBuild === undefined ? {} : { alsoIndexes: replayed.indexesToBuild }),
      onStatement: (readerDdl) => onProgress?.({ phase: 'indexing', ...reached, readerDdl }),
    });
  }
  const indexedAt = performance.now();
  // Fresh tables have no statistics of their full size yet (nor the expression indexes just built); the
  // API's first queries after the swap should not plan blind.
  onProgress?.({ phase: 'analyzing', ...reached });
  await analyzeSideBySide(pool, names.fresh, READER_DDL_CONNECTIONS);
  const analyzedAt = performance.now();
  log.info(
    {
      readerDdlMs: Math.round(indexedAt - replayedAt),
      slowestReaderStatements: slowestFirst(readerStatementsMs).slice(0, 5),
      analyzeMs: Math.round(analyzedAt - indexedAt),
    },
    'rebuild: analyzed; catching up and swapping',
  );
  // What was written meanwhile (building the reader indexes of a large portal takes minutes) is applied
  // in ordinary batches first, so the swap's catch-up, event by event under the lock the live projector
  // waits on, is short.
  onProgress?.({ phase: 'swapping', ...reached });
  const caughtUp = await replayUntil(
    store,
    { after: replayed.position, until: await store.headPosition(), batchSize: options.batchSize },
    applyReplayed,
  );
  const swapped = await swapIn(options, names, caughtUp.position);
  const swappedAt = performance.now();
  log.info(
    { schema, position: formatPosition(swapped.position), events: swapped.events },
    'rebuild: swapped in',
  );
  if (swapped.replacedLive) await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(names.old)} CASCADE`);
  return {
    replay: replayed.replay,
    position: swapped.position,
    events: replayed.events + caughtUp.events + swapped.events,
    durationMs: Math.round(performance.now() - startedAt),
    phasesMs: {
      replay: Math.round(replayedAt - startedAt),
      readerDdl: Math.round(indexedAt - replayedAt),
      analyze: Math.round(analyzedAt - indexedAt),
      swap: Math.round(swappedAt - analyzedAt),
    },
    readerStatementsMs,
  };
}

function swapIn(
  options: RebuildOptions,
  names: SchemaNames,
  replayedTo: Position,
): Promise<{ position: Position; events: number; replacedLive: boolean }> {
  const { pool, store, projection, schema, log } = options;
  return inTransaction(pool, async (client) => {
    const replacedLive = await schemaExists(client, schema);
    // Blocks the live projector's next batch (it row-locks this table first) but not the API's reads.
    if (replacedLive) {
      await client.query(`LOCK TABLE ${quoteIdentifier(schema)}.projection_checkpoints IN EXCLUSIVE MODE`);
    }
    // Read again under that lock (an operator's skip row-locks the live checkpoint too): a skip recorded
    // while the rebuild ran is passed over here as well.
    const target = { projection, notifyChannel: null, log, ...(await skippedEvents(client, options)) };
    await client.query(`SET LOCAL search_path TO ${quoteIdentifier(names.fresh)}, public`);
    const rest = await replayUntil(
      store,
      { after: replayedTo, until: await store.headPosition(), batchSize: options.batchSize },
      // Event by event: a failing run could not fall back inside this one transaction.
      async (batch, expected) =>
        appliedPosition(await applyBatchInOpenTransaction(client, target, batch, expected, 'events')),
    );
    if (replacedLive) {
      await client.query(`ALTER SCHEMA ${quoteIdentifier(schema)} RENAME TO ${quoteIdentifier(names.old)}`);
    }
    await client.query(`ALTER SCHEMA ${quoteIdentifier(names.fresh)} RENAME TO ${quoteIdentifier(schema)}`);
    await notifyPosition(client, options.notifyChannel, rest.position);
    return { position: rest.position, events: rest.events, replacedLive };
  });
}
