import { ensureEventStoreSchema, PostgresEventStore } from '@portal/eventstore';
import type { Pool } from '@portal/platform';
import { afterAll, beforeAll } from 'vitest';

/**
 * The PostgreSQL event store, the adapter the service runs on here, in schema `eventstore` of the test
 * file's own database (see read-database.ts): no other file's events, dropped with the database.
 */
export function usePostgresEventStore(database: { readonly pool: Pool }): {
  readonly store: PostgresEventStore;
} {
  let opened: PostgresEventStore | undefined;

  beforeAll(async () => {
    await ensureEventStoreSchema(database.pool);
    opened = new PostgresEventStore(database.pool, { pollIntervalMs: 100 });
  });

  afterAll(async () => {
    await opened?.close();
  });

  return {
    get store() {
      if (!opened) throw new Error('the event store is set up in beforeAll');
      return opened;
    },
  };
}
