import pg from 'pg';

/**
 * Stands in for autovacuum's ANALYZE where the server runs with `autovacuum = off` (this machine's CI
 * PostgreSQL does). Without statistics, a table filled from empty keeps the plans chosen while it was
 * empty: prepared statements then walk whole indexes and every write gets slower as the table grows.
 * `target` is a table, or empty for the whole database. Returns a function that stops it and waits
 * for a running ANALYZE.
 */
export function analyzePeriodically(pool: pg.Pool, everyMs: number, target = ''): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = pool
      // The table may not exist yet (the worker creates it), or the database may be going away.
      .query(`ANALYZE ${target}`)
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * `analyzePeriodically` over the whole database at `databaseUrl`, on a connection of its own; `everyMs`
 * 0 (or less) never analyzes. Returns a function that stops it and closes that connection.
 */
export function analyzeDatabasePeriodically(databaseUrl: string, everyMs: number): () => Promise<void> {
  if (everyMs <= 0) return () => Promise.resolve();
  const analyzer = new pg.Pool({ connectionString: databaseUrl, max: 1, application_name: 'bench-analyze' });
  // Idle connections die when a run drops the database; that is expected then.
  analyzer.on('error', () => undefined);
  const stop = analyzePeriodically(analyzer, everyMs);
  return async () => {
    await stop();
    await analyzer.end();
  };
}
