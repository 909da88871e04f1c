import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from './database.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';
const admin = new pg.Client({ connectionString: databaseUrl, application_name: 'idle-error-test-admin' });
admin.on('error', () => undefined);
await admin.connect();
afterAll(() => admin.end());

async function backendOfIdleConnection(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = rows[0]?.pid;
  if (pid === undefined) throw new Error('no backend pid');
  return pid;
}

describe('a pool whose idle connection the server ends', () => {
  it('reports the failure, stays usable, and does not end the process', async () => {
    const failures: Error[] = [];
    const pool = createPool({
      connectionString: databaseUrl,
      applicationName: 'idle-error-test',
      max: 1,
      onIdleConnectionError: (error) => failures.push(error),
    });
    try {
      const pid = await backendOfIdleConnection(pool);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await expect.poll(() => failures.length, { timeout: 5_000 }).toBe(1);
      expect(failures[0]?.message).toMatch(/terminating connection/);
      expect(await backendOfIdleConnection(pool)).not.toBe(pid);
    } finally {
      await pool.end();
    }
  });

  it('is survived without a reporter as well', async () => {
    // Without `createPool`'s own listener the 'error' event would be unhandled: vitest fails the run.
    const pool = createPool({ connectionString: databaseUrl, applicationName: 'idle-error-test', max: 1 });
    try {
      const pid = await backendOfIdleConnection(pool);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await expect.poll(() => pool.idleCount, { timeout: 5_000 }).toBe(0);
      expect(await backendOfIdleConnection(pool)).not.toBe(pid);
    } finally {
      await pool.end();
    }
  });
});
