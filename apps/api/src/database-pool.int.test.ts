import { afterAll, describe, expect, it } from 'vitest';
import { createApiPool } from './database-pool.js';

const pool = createApiPool({
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test',
  DATABASE_POOL_SIZE: 2,
});

afterAll(async () => {
  await pool.end();
});

describe("the API's pool", () => {
  it('runs every session without JIT compilation, whatever the server default', async () => {
    const sessions = await Promise.all(
      [0, 1].map(async () => {
        const client = await pool.connect();
        try {
          return (await client.query<{ jit: string }>('SHOW jit')).rows[0]?.jit;
        } finally {
          client.release();
        }
      }),
    );
    expect(sessions).toEqual(['off', 'off']);
  });
});
