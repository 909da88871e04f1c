import pg from 'pg';

/** What the watch saw of other databases' transactions while a measurement ran. */
export interface BarrierReport {
  readonly samples: number;
  /** Samples in which some other database had a transaction holding an xid, 0–100. */
  readonly heldPercent: number;
  /** The oldest such transaction seen, in ms (0 when none). */
  readonly oldestMs: number;
  /** Who held them: `database/application_name`, each once. */
  readonly holders: readonly string[];
}

export interface BarrierWatch {
  stop(): Promise<BarrierReport>;
}

const SAMPLE_EVERY_MS = 100;

/**
 * The event store delivers an event only once every transaction that started before it in the whole
 * PostgreSQL cluster has ended (libs/eventstore's barrier). On this shared machine another run's open
 * transaction therefore delays our projector, and with it `ready`; this samples `pg_stat_activity` so the
 * report says whether that happened, instead of leaving it to be guessed from odd latencies.
 */
export async function watchForeignTransactions(databaseUrl: string): Promise<BarrierWatch> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-barrier-watch' });
  client.on('error', () => undefined);
  await client.connect();
  let samples = 0;
  let held = 0;
  let oldestMs = 0;
  const holders = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  const sample = async (): Promise<void> => {
    const { rows } = await client.query<{ holder: string; age_ms: number | null }>(
      `SELECT coalesce(datname, '?') || '/' || coalesce(nullif(application_name, ''), '?') AS holder,
              (extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS age_ms
         FROM pg_stat_activity
        WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database()`,
    );
    samples += 1;
    if (rows.length > 0) held += 1;
    for (const row of rows) {
      holders.add(row.holder);
      oldestMs = Math.max(oldestMs, row.age_ms ?? 0);
    }
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = sample()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, SAMPLE_EVERY_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      await client.end();
      return {
        samples,
        heldPercent: samples === 0 ? 0 : (100 * held) / samples,
        oldestMs,
        holders: [...holders].sort(),
      };
    },
  };
}

/** Runs `measure` under a watch; answers its result and what the watch saw. */
export async function underBarrierWatch<T>(
  databaseUrl: string,
  measure: () => Promise<T>,
): Promise<{ result: T; foreignTransactions: BarrierReport }> {
  const watch = await watchForeignTransactions(databaseUrl);
  let result: T;
  try {
    result = await measure();
  } catch (error) {
    // Its connection would keep the process alive.
    await watch.stop().catch(() => undefined);
    throw error;
  }
  return { result, foreignTransactions: await watch.stop() };
}
