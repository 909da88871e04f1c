import { afterAll, describe, expect, it } from 'vitest';
import { createPool, withClient } from '../database.js';
import { observePools } from './pool-metrics.js';
import { createMetricsRegistry } from './registry.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';
const pool = createPool({ connectionString: databaseUrl, applicationName: 'pool-metrics-test', max: 2 });
afterAll(() => pool.end());

async function queriesCounted(registry: ReturnType<typeof createMetricsRegistry>): Promise<number> {
  const metric = await registry.getSingleMetric('portal_pg_queries_total')?.get();
  return metric?.values.find((value) => value.labels.pool === 'main')?.value ?? Number.NaN;
}

describe('the query counter of a pool', () => {
  it('counts pool queries and queries of checked-out clients, on connections made before and after', async () => {
    // A connection opened before the pool is observed is counted too: the wrap happens when it connects.
    await pool.query('SELECT 1');
    const registry = createMetricsRegistry();
    observePools(registry, { main: pool });
    expect(await queriesCounted(registry)).toBe(1);

    await Promise.all([pool.query('SELECT 2'), pool.query('SELECT 3'), pool.query('SELECT 4')]);
    await withClient(pool, async (client) => {
      await client.query('BEGIN');
      await client.query({ text: 'SELECT $1::int AS n', values: [5] });
      await client.query('COMMIT');
    });
    expect(await queriesCounted(registry)).toBe(7);
    // A failed query was still sent.
    await expect(pool.query('SELECT * FROM no_such_table_here')).rejects.toThrow();
    expect(await queriesCounted(registry)).toBe(8);
  });
});
