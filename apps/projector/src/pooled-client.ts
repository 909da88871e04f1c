import type { Pool, PoolClient } from '@portal/platform';

/**
 * Runs `work` on a client checked out of `pool`. While checked out a pg client has no error listener
 * of its own, so a connection dropped between two queries would surface as an uncaught 'error' event;
 * the listener here turns that into a destroyed client instead.
 */
export async function withClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
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
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
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
