/**
 * Runs the projector, as the projector process does, from START over a seeded event store into a
 * fresh read schema, until its checkpoint reaches the seeded head; or runs a rebuild (lean or full)
 * into that schema until it is swapped in. Prints one result line. A process of its own so its peak
 * RSS is the projector's, not the seeder's.
 */
import { comparePositions, parsePosition, type Position } from '@portal/domain';
import { PostgresEventStore } from '@portal/eventstore';
import { createLogger, createPool } from '@portal/platform';
import pg from 'pg';
import {
  DEFAULT_RETRY_DELAYS_MS,
  ensureOperationsSchema,
  ensureReadSchema,
  loadProjectorConfig,
  PORTAL_PROJECTION_CHANNEL,
  portalProjection,
  rebuildReadSchema,
  runProjector,
} from '../../apps/projector/src/index.js';
import {
  REBUILD_STAMP,
  REPLAY_JOB_VARIABLE,
  RESULT_PREFIX,
  type ReplayJob,
  type ReplayWorkerResult,
} from './replay-job.js';
import { recordGcPauses } from '../support/gc-time.js';

// The parent holds our stdin open; if it dies (killed, crashed) nobody would stop this projector.
process.stdin.on('end', () => process.exit(1));
process.stdin.resume();

const job = JSON.parse(process.env[REPLAY_JOB_VARIABLE] ?? '') as ReplayJob;
const head = parsePosition(job.head);
if (!head) throw new Error(`bad head position ${job.head}`);

const log = createLogger({ name: 'bench-replay', level: 'warn' });
// The projector process's pool size (DATABASE_POOL_SIZE default).
const pool = createPool({
  connectionString: job.databaseUrl,
  max: 10,
  applicationName: 'bench-replay',
});
const store = new PostgresEventStore(pool, { schema: job.eventsSchema });
// A rebuild creates its own schema (lean or whole), inside the time measured.
if (job.mode === 'projector')
  await ensureReadSchema(pool, { schema: job.readSchema, projection: portalProjection });
await ensureOperationsSchema(pool, { schema: job.operationsSchema });

const done = new AbortController();
const segmentEndsMs: number[] = [];
let batches = 0;
let startedAt = 0;
let finishedAt = 0;

/** The seeded store is fresh, so a global position is also the count of events up to it. */
function segmentsReached(position: Position): void {
  batches += 1;
  const elapsed = performance.now() - startedAt;
  while (Number(position.prepare) >= (segmentEndsMs.length + 1) * job.segmentEvents)
    segmentEndsMs.push(elapsed);
}

function checkpointReached(position: Position): void {
  // A rebuild notifies once, as it swaps in: its batches were counted as it replayed them.
  if (job.mode !== 'projector') return;
  segmentsReached(position);
  if (comparePositions(position, head as Position) >= 0 && !done.signal.aborted) {
    finishedAt = performance.now();
    done.abort();
  }
}

// In this fresh database nobody else hears the production channel name.
const listener = new pg.Client({
  connectionString: job.databaseUrl,
  application_name: 'bench-replay-listener',
});
// Without its connection the worker would wait for a checkpoint it can no longer hear of, then time out.
listener.on('error', (error) => {
  log.error({ err: error }, "the replay worker's listener lost its connection");
  process.exit(1);
});
listener.on('notification', (message) => {
  const position = message.payload === undefined ? null : parsePosition(message.payload);
  if (position) checkpointReached(position);
});
await listener.connect();
await listener.query(`LISTEN ${PORTAL_PROJECTION_CHANNEL}`);

const deadline = setTimeout(() => {
  log.error({ timeoutMs: job.timeoutMs }, 'replay did not reach the head in time');
  // A rebuild takes no signal: give up on the process.
  if (job.mode !== 'projector') process.exit(1);
  done.abort();
}, job.timeoutMs);
let phaseSeconds: ReplayWorkerResult['phaseSeconds'] = null;
let readerStatementsMs: ReplayWorkerResult['readerStatementsMs'] = null;
let foldSplit: ReplayWorkerResult['foldSplit'] = null;

/** This process's CPU seconds (user and system) since it started. */
function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/**
 * Where a rebuild's replay ends (its last replayed batch; a copy rebuild's fold reaching the head) and
 * where the next phase begins (a copy rebuild wrote its tables in between), in wall and CPU seconds.
 */
const marks = { startCpu: 0, lastReplayed: { at: 0, cpu: 0 }, indexing: { at: 0, cpu: 0 } };
const gcPauses = recordGcPauses();

/** The rebuild reports its replayed batches itself (it notifies only when it swaps in). */
async function rebuild(): Promise<void> {
  const result = await rebuildReadSchema({
    pool,
    store,
    projection: portalProjection,
    schema: job.readSchema,
    operationsSchema: job.operationsSchema,
    notifyChannel: PORTAL_PROJECTION_CHANNEL,
    batchSize: job.batchSize,
    log,
    stamp: REBUILD_STAMP,
    readerIndexes: job.mode === 'rebuild-full' ? 'before-replay' : 'after-replay',
    replay: job.mode === 'copy' ? 'copy' : 'batches',
    // A copy rebuild folds the history in pages of the batch size (its catch-up batches are as large).
    copyPageSize: job.batchSize,
    ...(job.indexBuildMemory === null ? {} : { indexBuildMemory: job.indexBuildMemory }),
    onProgress: (progress) => {
      if (progress.phase === 'replaying') {
        segmentsReached(progress.position);
        marks.lastReplayed = { at: performance.now(), cpu: cpuSeconds() };
      }
      if (progress.phase === 'indexing' && marks.indexing.at === 0)
        marks.indexing = { at: performance.now(), cpu: cpuSeconds() };
    },
  });
  finishedAt = performance.now();
  const { lastReplayed, indexing } = marks;
  foldSplit = {
    foldSeconds: (lastReplayed.at - startedAt) / 1000,
    writeSeconds: (indexing.at - lastReplayed.at) / 1000,
    foldCpuSeconds: lastReplayed.cpu - marks.startCpu,
    writeCpuSeconds: indexing.cpu - lastReplayed.cpu,
    restCpuSeconds: cpuSeconds() - indexing.cpu,
    foldGc: gcPauses.between(startedAt, lastReplayed.at),
    writeGc: gcPauses.between(lastReplayed.at, indexing.at),
  };
  const { replay, readerDdl, analyze, swap } = result.phasesMs;
  readerStatementsMs = result.readerStatementsMs;
  phaseSeconds = {
    replay: replay / 1000,
    readerDdl: readerDdl / 1000,
    analyze: analyze / 1000,
    swap: swap / 1000,
  };
}

startedAt = performance.now();
marks.startCpu = cpuSeconds();
try {
  if (job.mode !== 'projector') {
    await rebuild();
  } else
    await runProjector({
      pool,
      store,
      projection: portalProjection,
      schema: job.readSchema,
      operationsSchema: job.operationsSchema,
      notifyChannel: PORTAL_PROJECTION_CHANNEL,
      batchSize: job.batchSize,
      retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
      // As the projector process takes it: PROJECTOR_MERGE_PENDING_LISTS_EVERY=0 replays without merges.
      mergePendingListsEvery: loadProjectorConfig().PROJECTOR_MERGE_PENDING_LISTS_EVERY,
      log,
      signal: done.signal,
    });
} finally {
  clearTimeout(deadline);
  gcPauses.stop();
  await listener.end();
  await store.close();
  await pool.end();
}
if (finishedAt === 0) process.exit(1);

const result: ReplayWorkerResult = {
  mode: job.mode,
  batchSize: job.batchSize,
  events: job.events,
  seconds: (finishedAt - startedAt) / 1000,
  batches,
  segmentEndsMs,
  peakRssMiB: process.resourceUsage().maxRSS / 1024,
  nodeFlags: process.execArgv,
  phaseSeconds,
  readerStatementsMs,
  foldSplit,
};
// Stop watching stdin, or its open handle would keep this process alive.
process.stdin.destroy();
process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
