import { appendFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { formatPosition, type Position } from '@portal/domain';
import { ensureEventStoreSchema, PostgresEventStore } from '@portal/eventstore';
import { createPool, type Pool } from '@portal/platform';
import { runPgCeiling, type CeilingResult } from '../pg-ceiling/run-pg-ceiling.js';
import { cpuSince, markCpu } from '../support/cpu.js';
import { analyzePeriodically } from '../support/periodic-analyze.js';
import { createScratchDatabase, scratchSchemaName } from '../support/scratch-database.js';
import { perSecond } from '../support/stats.js';
import { eventMixes, PortalHistory, type EventMixName } from './portal-history.js';
import {
  REBUILD_STAMP,
  REPLAY_JOB_VARIABLE,
  RESULT_PREFIX,
  type ReplayJob,
  type ReplayMode,
  type ReplayWorkerResult,
} from './replay-job.js';
import { seedEventStore, type SeedOutcome } from './seed-event-store.js';
import { PROJECTOR_NODE_FLAGS } from '../../apps/projector/src/node-flags.js';

export interface ReplayOptions {
  readonly events: number;
  readonly batchSizes: readonly number[];
  /** Each batch size is replayed once per mode, in this order (the projector, or a lean or full rebuild). */
  readonly modes: readonly ReplayMode[];
  readonly segmentEvents: number;
  readonly seed: number;
  readonly timeoutMs: number;
  /** ANALYZE the read table this often during a replay, as autovacuum would; 0 for never. */
  readonly analyzeEveryMs: number;
  readonly mix: EventMixName;
  /** Single-row INSERTs timed after the replays (the ceiling the rates are compared with); 0 for none. */
  readonly ceilingInserts: number;
  /** A rebuild's `maintenance_work_mem` for its reader indexes; null: the projector's default. */
  readonly indexBuildMemory: string | null;
  /**
   * Node flags of the replay worker, one entry per variant: every mode and batch size runs once with
   * each, over the same seeded history (`['']`: node's defaults, once).
   */
  readonly workerNodeVariants: readonly string[];
}

export interface ReplayRun extends ReplayWorkerResult {
  /** The worker's node flags in this run (one variant of `--worker-node-args`); empty for node's defaults. */
  readonly workerNodeVariant: string;
  readonly eventsPerSecond: number;
  /** Events per second within each segment of `segmentEvents`. */
  readonly segmentRates: readonly number[];
  /** Rows in the rebuilt `portal_objects`: must equal the created objects. */
  readonly projectedObjects: number;
  /** All cores, 0–100, while the worker ran: the machine is shared. */
  readonly machineBusyPercent: number;
  /**
   * Milliseconds PostgreSQL spent executing statements in the replay's database per event
   * (`pg_stat_database.active_time`): the projector's statements and its event store reads.
   */
  readonly pgMsPerEvent: number;
}

export interface ReplayOutcome {
  readonly seeding: SeedOutcome & {
    readonly types: Readonly<Record<string, number>>;
    readonly objects: number;
  };
  readonly runs: readonly ReplayRun[];
  /** Autocommit single-row INSERTs from one connection into the same database, after the replays. */
  readonly ceiling: CeilingResult | null;
}

const EVENTS_SCHEMA = 'eventstore';

/** Milliseconds spent executing statements in this database, by sessions that reported so far. */
async function activeTimeMs(pool: Pool): Promise<number> {
  const result = await pool.query<{ ms: number }>(
    'SELECT active_time AS ms FROM pg_stat_database WHERE datname = current_database()',
  );
  return result.rows[0]?.ms ?? 0;
}

/**
 * The active time once the worker's sessions have reported theirs: a session reports on exit, so
 * wait until the figure stops moving (up to a few seconds).
 */
async function settledActiveTimeMs(pool: Pool): Promise<number> {
  let last = await activeTimeMs(pool);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await activeTimeMs(pool);
    if (now === last) return now;
    last = now;
  }
  return last;
}
const workerPath = new URL('./replay-worker.ts', import.meta.url).pathname;

/** `copy, batch 10000` and the run's node flags, if any: how logs and errors name a run. */
function runName(job: Pick<ReplayJob, 'mode' | 'batchSize'>, variant: string): string {
  return `${job.mode}, batch ${job.batchSize}${variant === '' ? '' : `, node flags ${variant}`}`;
}

/**
 * `BENCH_REPLAY_WORKER_OUTPUT=<file>` appends what else the worker printed there (with
 * `BENCH_REPLAY_NODE_ARGS=--trace-gc`, each collection), under a line naming the run. A file that cannot
 * be written is reported and the run goes on.
 */
async function keepWorkerOutput(job: ReplayJob, variant: string, output: string): Promise<void> {
  const file = process.env.BENCH_REPLAY_WORKER_OUTPUT;
  if (file === undefined || file === '') return;
  try {
    await appendFile(file, `== replay worker: ${runName(job, variant)}\n${output}`);
  } catch (error) {
    process.stderr.write(`could not keep the worker's output in ${file}: ${String(error)}\n`);
  }
}

async function runWorker(job: ReplayJob, variant: string): Promise<ReplayWorkerResult> {
  // The projector's own flags first (a variant given later wins, as node takes an option's last value);
  // `BENCH_REPLAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=…"` profiles the worker (the replay alone).
  const given = `${process.env.BENCH_REPLAY_NODE_ARGS ?? ''} ${variant}`
    .split(' ')
    .filter((arg) => arg !== '');
  const nodeArgs = [...PROJECTOR_NODE_FLAGS, ...given];
  const worker = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', workerPath], {
    env: { ...process.env, [REPLAY_JOB_VARIABLE]: JSON.stringify(job) },
    // The worker watches its stdin: when this process dies, the pipe closes and the worker exits.
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  worker.stdout.setEncoding('utf8');
  worker.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  // `close`, not `exit`: the worker's last output may still be in the pipe when it exits.
  const [code] = (await once(worker, 'close')) as [number | null];
  await keepWorkerOutput(job, variant, output);
  const line = output.split('\n').find((candidate) => candidate.startsWith(RESULT_PREFIX));
  if (code !== 0 || line === undefined) {
    throw new Error(`replay worker (${runName(job, variant)}) exited with ${String(code)}:\n${output}`);
  }
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as ReplayWorkerResult;
}

/**
 * The head a subscriber sees once the seeding transactions are below the commit barrier (another
 * session's open transaction can hold it back for a moment). Positions must be 1..events.
 */
async function seededHead(store: PostgresEventStore, events: number): Promise<Position> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const head = await store.headPosition();
    if (head.prepare === BigInt(events)) return head;
    if (Date.now() > deadline) {
      throw new Error(`expected positions 1..${events}, the visible head is ${formatPosition(head)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function segmentRates(result: ReplayWorkerResult, segmentEvents: number): number[] {
  return result.segmentEndsMs.map((endMs, index) =>
    perSecond(segmentEvents, endMs - (result.segmentEndsMs[index - 1] ?? 0)),
  );
}

/**
 * Seeds a scratch database once, then replays it into a fresh read schema per batch size, each in
 * its own worker process. Drops the database at the end, whatever happens.
 */
export async function runReplay(
  options: ReplayOptions,
  progress: (line: string) => void,
): Promise<ReplayOutcome> {
  const database = await createScratchDatabase('bench_replay');
  const pool = createPool({ connectionString: database.url, max: 2, applicationName: 'bench-replay-seed' });
  // Idle connections die when an interrupted run drops the database; that is expected then.
  pool.on('error', () => undefined);
  try {
    // The read models' footprint column is a PostGIS geometry; a fresh database has no extensions
    // (scripts/migrate.ts creates it for the service's own database).
    await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await ensureEventStoreSchema(pool, { schema: EVENTS_SCHEMA });
    const history = new PortalHistory(options.seed, eventMixes[options.mix]);
    const client = await pool.connect();
    let seeding: SeedOutcome;
    try {
      seeding = await seedEventStore(client, EVENTS_SCHEMA, history, options.events, (written) => {
        progress(`seeded ${written.toLocaleString('en-US')} events`);
      });
    } finally {
      client.release();
    }
    const head = await seededHead(new PostgresEventStore(pool, { schema: EVENTS_SCHEMA }), options.events);
    const runs: ReplayRun[] = [];
    const jobs = options.batchSizes.flatMap((batchSize) =>
      options.modes.flatMap((mode) =>
        options.workerNodeVariants.map((variant) => ({ mode, batchSize, variant })),
      ),
    );
    for (const { mode, batchSize, variant } of jobs) {
      const readSchema = scratchSchemaName('bench_read');
      const operationsSchema = scratchSchemaName('bench_ops');
      progress(
        `replaying ${options.events.toLocaleString('en-US')} events, ${runName({ mode, batchSize }, variant)}`,
      );
      // A rebuild fills `<schema>_rebuild_<stamp>` and renames it at the end.
      const filled = mode === 'projector' ? readSchema : `${readSchema}_rebuild_${REBUILD_STAMP}`;
      const stopAnalyzing =
        options.analyzeEveryMs > 0
          ? analyzePeriodically(pool, options.analyzeEveryMs, `"${filled}".portal_objects`)
          : () => Promise.resolve();
      const cpuMark = markCpu();
      const activeBefore = await settledActiveTimeMs(pool);
      try {
        const result = await runWorker(
          {
            mode,
            databaseUrl: database.url,
            eventsSchema: EVENTS_SCHEMA,
            readSchema,
            operationsSchema,
            batchSize,
            head: formatPosition(head),
            events: options.events,
            segmentEvents: options.segmentEvents,
            timeoutMs: options.timeoutMs,
            indexBuildMemory: options.indexBuildMemory,
          },
          variant,
        );
        const { machineBusyPercent } = cpuSince(cpuMark);
        await stopAnalyzing();
        const pgMs = (await settledActiveTimeMs(pool)) - activeBefore;
        const count = await pool.query<{ count: string }>(
          `SELECT count(*)::text AS count FROM "${readSchema}".portal_objects`,
        );
        runs.push({
          ...result,
          workerNodeVariant: variant,
          eventsPerSecond: perSecond(result.events, result.seconds * 1000),
          segmentRates: segmentRates(result, options.segmentEvents),
          projectedObjects: Number(count.rows[0]?.count ?? 0),
          machineBusyPercent,
          pgMsPerEvent: pgMs / result.events,
        });
        progress(`  ${Math.round(perSecond(result.events, result.seconds * 1000))} events/s`);
      } finally {
        await stopAnalyzing();
        await pool.query(`DROP SCHEMA IF EXISTS "${readSchema}" CASCADE`);
        await pool.query(`DROP SCHEMA IF EXISTS "${operationsSchema}" CASCADE`);
      }
    }
    const ceiling =
      options.ceilingInserts > 0
        ? ((await runPgCeiling(database.url, { clients: [1], inserts: options.ceilingInserts }))[0] ?? null)
        : null;
    return {
      seeding: { ...seeding, types: Object.fromEntries(history.counts), objects: history.objectCount },
      runs,
      ceiling,
    };
  } finally {
    await pool.end();
    await database.drop();
  }
}
