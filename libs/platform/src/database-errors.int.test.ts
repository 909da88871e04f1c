import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionError, isInvalidDataError } from './database-errors.js';

const connectionString = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';
const client = new pg.Client({ connectionString });

beforeAll(async () => {
  await client.connect();
});

afterAll(async () => {
  await client.end();
});

/** The error PostgreSQL answers to `text` with `values`. */
async function refusal(text: string, values: unknown[] = []): Promise<unknown> {
  try {
    await client.query(text, values);
  } catch (error) {
    return error;
  }
  throw new Error(`${text} was not refused`);
}

describe('database error classes, as the real server answers', () => {
  it('a parameter the statement never uses is our bug, not an outage', async () => {
    const error = await refusal('SELECT 1', ['unused']);
    expect((error as { code?: string }).code).toBe('08P01');
    expect(isConnectionError(error)).toBe(false);
    // The server kept the connection.
    expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
  });

  it('a refused value is invalid data', async () => {
    const error = await refusal("SELECT 'not a time'::timestamptz");
    expect(isInvalidDataError(error)).toBe(true);
    expect(isConnectionError(error)).toBe(false);
  });

  it('a server shutting a session down is an outage', async () => {
    const victim = new pg.Client({ connectionString });
    victim.on('error', () => undefined);
    await victim.connect();
    const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    const pending = victim.query('SELECT pg_sleep(10)').catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.query('SELECT pg_terminate_backend($1)', [pid]);
    expect(isConnectionError(await pending)).toBe(true);
    await victim.end().catch(() => undefined);
  });
});
