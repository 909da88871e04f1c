import { Counter, Gauge, type Registry } from 'prom-client';
import { queriesSentBy, type Pool } from '../database.js';

/**
 * Connection use of PostgreSQL pools, read at scrape time (no cost between scrapes). `pool` names the
 * pool (`main`, `change_feed`…): a fixed handful per process.
 */
export function observePools(registry: Registry, pools: Readonly<Record<string, Pool>>): void {
  const entries = Object.entries(pools);
  new Gauge({
    name: 'portal_pg_pool_connections',
    help: 'PostgreSQL pool connections by state: total open, idle (open and unused), in use.',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      for (const [name, pool] of entries) {
        this.set({ pool: name, state: 'total' }, pool.totalCount);
        this.set({ pool: name, state: 'idle' }, pool.idleCount);
        this.set({ pool: name, state: 'in_use' }, pool.totalCount - pool.idleCount);
      }
    },
  });
  new Gauge({
    name: 'portal_pg_pool_waiting_requests',
    help: 'Queries waiting for a free connection of the pool (the pool is exhausted while above 0).',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      for (const [name, pool] of entries) this.set({ pool: name }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'portal_pg_pool_max_connections',
    help: 'Most connections the pool may open (its configured size).',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      for (const [name, pool] of entries) this.set({ pool: name }, pool.options.max);
    },
  });
  const counted = new Map<string, number>();
  new Counter({
    name: 'portal_pg_queries_total',
    help: 'Queries sent to PostgreSQL by the pool (each one a round trip), since the process started.',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      for (const [name, pool] of entries) {
        const sent = queriesSentBy(pool);
        this.inc({ pool: name }, sent - (counted.get(name) ?? 0));
        counted.set(name, sent);
      }
    },
  });
}
