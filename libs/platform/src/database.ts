import pg from 'pg';

// bigint columns (positions, revisions) arrive as text; numeric parsing would lose precision past 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export function createPool(options: {
  connectionString: string;
  max?: number;
  applicationName: string;
}): pg.Pool {
  return new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName,
  });
}

/** Runs `work` inside BEGIN/COMMIT on one client, rolling back on any error. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
