import pg from 'pg';

// bigint columns (positions, revisions) arrive as text; numeric parsing would lose precision past 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** Queries sent by each pool's clients since it was made (read by the metrics; see `queriesSentBy`). */
const queryTallies = new WeakMap<pg.Pool, { sent: number }>();

/**
 * Counts every query a client sends. pg has no per-query event, so the client's `query` is wrapped
 * once, when the pool connects it; counting at the client catches `pool.query` and checked-out clients
 * alike. Why count: each query is a round trip (a socket write and a wake-up on both sides), which is
 * what a request's CPU goes to once its SQL is cheap; queries per request is the number to keep low.
 */
function countQueries(client: pg.PoolClient, tally: { sent: number }): void {
  const send = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    tally.sent += 1;
    return send(...args);
  };
}

/** How many queries `pool`'s clients have sent (0 for a pool not made by `createPool`). */
export function queriesSentBy(pool: pg.Pool): number {
  return queryTallies.get(pool)?.sent ?? 0;
}

export function createPool(options: {
  connectionString: string;
  max?: number;
  applicationName: string;
  /** Server settings for every session, in libpq's `options` form (`-c name=value`). */
  sessionOptions?: string;
  /** Told when an idle connection fails (the server ended it); the pool has discarded it already. */
  onIdleConnectionError?: (error: Error) => void;
}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName,
    ...(options.sessionOptions === undefined ? {} : { options: options.sessionOptions }),
  });
  // pg-pool emits an idle connection's failure on the pool, and an 'error' event nobody listens to ends
  // the process: a restarted server, or one backend terminated by an operator, would take every app
  // down with it. The pool drops that client and the next query connects anew, so a report suffices.
  const report = options.onIdleConnectionError ?? (() => undefined);
  pool.on('error', (error) => {
    report(error);
  });
  const tally = { sent: 0 };
  queryTallies.set(pool, tally);
  pool.on('connect', (client) => {
    countQueries(client, tally);
  });
  return pool;
}

/**
 * Runs `work` on a client checked out of `pool`. While checked out a pg client has no error listener
 * of its own, so a connection dropped between two queries would surface as an uncaught 'error' event;
 * the listener here turns that into a destroyed client instead.
 */
export async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error): void => {
    broken = error;
  };
  client.on('error', onError);
  try {
    return await work(client);
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** `BEGIN` … `COMMIT` on one client; any failure rolls back, and a failed rollback destroys the client. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A failed rollback means a dead connection, which the pool discards on release anyway.
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}
