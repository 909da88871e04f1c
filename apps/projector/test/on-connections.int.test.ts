import type { Pool } from '@portal/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onConnections } from '../src/rebuild/on-connections.js';
import { ensureTestDatabase, openTestPool } from './support/test-database.js';

let pool: Pool;

beforeAll(async () => {
  await ensureTestDatabase();
  pool = openTestPool('on-connections', 4);
});

afterAll(async () => {
  await pool.end();
});

describe('onConnections', () => {
  it('applies every item once, on as many sessions at once, each in its transaction', async () => {
    const applied: number[] = [];
    const sessions = new Set<number>();
    // No item is applied before all three sessions have begun: each then holds one.
    let begun = 0;
    let allBegun: () => void = () => undefined;
    const everyoneThere = new Promise<void>((resolve) => {
      allBegun = resolve;
    });
    await onConnections(pool, [1, 2, 3, 4, 5, 6, 7, 8], 3, {
      begin: async (client) => {
        await client.query("SELECT set_config('application_name', 'on-connections-test', true)");
        begun += 1;
        if (begun === 3) allBegun();
      },
      apply: async (client, item) => {
        await everyoneThere;
        const result = await client.query<{ pid: number; inTransaction: boolean }>(
          "SELECT pg_backend_pid() AS pid, current_setting('application_name') = 'on-connections-test' AS \"inTransaction\"",
        );
        const row = result.rows[0];
        expect(row?.inTransaction).toBe(true);
        sessions.add(row?.pid ?? 0);
        applied.push(item);
      },
    });
    expect([...applied].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(sessions.size).toBe(3);
  });

  it('throws the first failure, and starts no item after it', async () => {
    const started: string[] = [];
    const run = onConnections(pool, ['SELECT 1', 'SELECT 1/0', 'SELECT 2', 'SELECT 3', 'SELECT 4'], 1, {
      begin: () => Promise.resolve(),
      apply: async (client, statement) => {
        started.push(statement);
        await client.query(statement);
      },
    });
    await expect(run).rejects.toThrow(/division by zero/);
    expect(started).toEqual(['SELECT 1', 'SELECT 1/0']);
  });
});
