import { createPool, type Config, type Pool } from '@portal/platform';

/**
 * Settings of every session of the API's main pool. `jit=off`: the API answers short queries, and
 * PostGIS prices each footprint test so high that PostgreSQL compiles queries that run in
 * milliseconds (a search over a wide box took 800 ms with JIT, 390 ms without; a 1° box 480 ms, nearly
 * all compiling, before the collection test stopped going through PostGIS). Nothing the API asks is
 * long enough for compiled expressions to pay back.
 */
export const API_SESSION_OPTIONS = '-c jit=off';

/** The API's main pool: commands, reads and the event store's appends. */
export function createApiPool(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>,
  onIdleConnectionError?: (error: Error) => void,
): Pool {
  return createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'api',
    sessionOptions: API_SESSION_OPTIONS,
    ...(onIdleConnectionError === undefined ? {} : { onIdleConnectionError }),
  });
}
