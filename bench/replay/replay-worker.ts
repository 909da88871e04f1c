/**
 * Runs the projector, as the projector process does, from START over a seeded event store into a
 * fresh read schema, until its checkpoint reaches the seeded head; prints one result line. A process
 * of its own so its peak RSS is the projector's, not the seeder's.
 */
import { comparePositions, parsePosition, type Position } from '@portal/domain';
import { PostgresEventStore } from '@portal/eventstore';
import { createLogger, createPool } from '@portal/platform';
import pg from 'pg';
import {
  DEFAULT_RETRY_DELAYS_MS,
  ensureOperationsSchema,
  ensureReadSchema,
  PORTAL_PROJECTION_CHANNEL,
  portalProjection,
  runProjector,
} from '../../apps/projector/src/index.js';
import { REPLAY_JOB_VARIABLE, RESULT_PREFIX, type ReplayJob, type ReplayWorkerResult } from './replay-job.js';

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
await ensureReadSchema(pool, { schema: job.readSchema, projection: portalProjection });
await ensureOperationsSchema(pool, { schema: job.operationsSchema });

const done = new AbortController();
const segmentEndsMs: number[] = [];
let batches = 0;
let startedAt = 0;
let finishedAt = 0;

/** The seeded schema is fresh, so a global position is also the count of events up to it. */
function checkpointReached(position: Position): void {
  batches += 1;
  const elapsed = performance.now() - startedAt;
  while (Number(position.prepare) >= (segmentEndsMs.length + 1) * job.segmentEvents)
    segmentEndsMs.push(elapsed);
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
listener.on('notification', (message) => {
  const position = message.payload === undefined ? null : parsePosition(message.payload);
  if (position) checkpointReached(position);
});
await listener.connect();
await listener.query(`LISTEN ${PORTAL_PROJECTION_CHANNEL}`);

const deadline = setTimeout(() => {
  log.error({ timeoutMs: job.timeoutMs }, 'replay did not reach the head in time');
  done.abort();
}, job.timeoutMs);
startedAt = performance.now();
try {
  await runProjector({
    pool,
    store,
    projection: portalProjection,
    schema: job.readSchema,
    operationsSchema: job.operationsSchema,
    notifyChannel: PORTAL_PROJECTION_CHANNEL,
    batchSize: job.batchSize,
    retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
    log,
    signal: done.signal,
  });
} finally {
  clearTimeout(deadline);
  await listener.end();
  await store.close();
  await pool.end();
}
if (finishedAt === 0) process.exit(1);

const result: ReplayWorkerResult = {
  batchSize: job.batchSize,
  events: job.events,
  seconds: (finishedAt - startedAt) / 1000,
  batches,
  segmentEndsMs,
  peakRssMiB: process.resourceUsage().maxRSS / 1024,
};
// Stop watching stdin, or its open handle would keep this process alive.
process.stdin.destroy();
process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
