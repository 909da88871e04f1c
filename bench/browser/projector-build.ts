import { once } from 'node:events';
import { comparePositions, formatPosition, parsePosition, type Position } from '@portal/domain';
import { PostgresEventStore } from '@portal/eventstore';
import pg from 'pg';
import { analyzePeriodically } from '../support/periodic-analyze.js';
import { perSecond } from '../support/stats.js';
import { startApp, type AppLogEntry } from './app-processes.js';

export interface BuildOutcome {
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
  readonly batches: number;
  /** Events per second within each tenth of the history. */
  readonly tenthRates: readonly number[];
}

/**
 * The head a subscriber sees once every seeding transaction is below the commit barrier (another
 * session's open transaction anywhere on the server can hold it back for a while).
 */
export async function seededHead(pool: pg.Pool, events: number): Promise<Position> {
  const store = new PostgresEventStore(pool, { schema: 'eventstore' });
  const deadline = Date.now() + 120_000;
  try {
    for (;;) {
      const head = await store.headPosition();
      if (head.prepare >= BigInt(events)) return head;
      if (Date.now() > deadline)
        throw new Error(`the visible head is ${formatPosition(head)}, not ${events}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await store.close();
  }
}

/**
 * Starts the projector process on the seeded store and times it from start to the checkpoint reaching
 * the head, from its own NOTIFYs; ANALYZEs the read table periodically as autovacuum would (this
 * server runs without it). Stops the projector at the end.
 */
export async function buildReadModels(options: {
  readonly databaseUrl: string;
  /** The app's settings: DATABASE_URL of the benchmark's database and the services. */
  readonly env: NodeJS.ProcessEnv;
  readonly pool: pg.Pool;
  readonly head: Position;
  readonly events: number;
  readonly batchSize: number;
  readonly analyzeEveryMs: number;
  readonly progress: (line: string) => void;
}): Promise<BuildOutcome> {
  const listener = new pg.Client({
    connectionString: options.databaseUrl,
    application_name: 'bench-browser-listen',
  });
  // Without its connection the bench would wait for a head it can no longer hear of.
  const lost = new Promise<never>((_, reject) => {
    listener.on('error', (error) => {
      reject(new Error(`the bench's listener lost its connection: ${error.message}`));
    });
  });
  lost.catch(() => undefined);
  await listener.connect();
  await listener.query('LISTEN portal_projection');
  const tenthEndsMs: number[] = [];
  let batches = 0;
  let startedAt = 0;
  let reachedHead: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    reachedHead = resolve;
  });
  listener.on('notification', (message) => {
    const position = message.payload === undefined ? null : parsePosition(message.payload);
    if (!position) return;
    batches += 1;
    const elapsed = performance.now() - startedAt;
    while (Number(position.prepare) >= ((tenthEndsMs.length + 1) * options.events) / 10) {
      tenthEndsMs.push(elapsed);
      options.progress(
        `projected ${(tenthEndsMs.length * 10).toString()}% in ${Math.round(elapsed / 1000)} s`,
      );
    }
    if (comparePositions(position, options.head) >= 0) reachedHead();
  });
  const stopAnalyzing =
    options.analyzeEveryMs > 0
      ? analyzePeriodically(options.pool, options.analyzeEveryMs, 'read.portal_objects')
      : () => Promise.resolve();
  startedAt = performance.now();
  const projector = startApp('apps/projector/src/main.ts', {
    ...options.env,
    PROJECTOR_BATCH_SIZE: String(options.batchSize),
    LOG_LEVEL: 'warn',
  });
  const failed = new Promise<never>((_, reject) => {
    projector.child.once('exit', (code) => {
      reject(new Error(`projector exited with ${String(code)} before reaching the head`));
    });
  });
  try {
    await Promise.race([reached, failed, lost]);
  } finally {
    failed.catch(() => undefined);
    await projector.stop();
    await stopAnalyzing();
    await listener.end();
  }
  const seconds = (performance.now() - startedAt) / 1000;
  return {
    events: options.events,
    seconds,
    eventsPerSecond: perSecond(options.events, seconds * 1000),
    batches,
    tenthRates: tenthEndsMs.map((end, index) =>
      perSecond(options.events / 10, end - (tenthEndsMs[index - 1] ?? 0)),
    ),
  };
}

/** A rebuild's log line as one line of progress: its message, then its counts (events, rate, time left). */
function progressLine(entry: AppLogEntry): string {
  const { events, eventsPerSecond, etaSeconds } = entry;
  if (typeof events !== 'number') return entry.msg ?? '';
  const rate =
    typeof eventsPerSecond === 'number' ? `, ${eventsPerSecond.toLocaleString('en')} events/s` : '';
  const left = typeof etaSeconds === 'number' ? `, about ${etaSeconds} s left` : '';
  return `${entry.msg ?? ''}: ${events.toLocaleString('en')} events${rate}${left}`;
}

/**
 * Builds the read models the way an operator rebuilds them (`apps/projector/src/rebuild.ts`: a fresh
 * schema, replayed, indexed, analyzed and swapped in), timed from start to exit. The rebuild's own
 * settings (its mode among them) come from `env` and this process's environment.
 */
export async function rebuildReadModels(options: {
  readonly env: NodeJS.ProcessEnv;
  readonly events: number;
  readonly progress: (line: string) => void;
}): Promise<BuildOutcome> {
  const startedAt = performance.now();
  const rebuild = startApp(
    'apps/projector/src/rebuild.ts',
    { ...options.env, LOG_LEVEL: 'info' },
    (entry) => {
      if (entry.msg !== undefined && /rebuild/i.test(entry.msg)) options.progress(progressLine(entry));
    },
  );
  const [code] = (await once(rebuild.child, 'exit')) as [number | null];
  await rebuild.stop();
  if (code !== 0) throw new Error(`the rebuild exited with ${String(code)}`);
  const seconds = (performance.now() - startedAt) / 1000;
  return {
    events: options.events,
    seconds,
    eventsPerSecond: perSecond(options.events, seconds * 1000),
    batches: 0,
    tenthRates: [],
  };
}
