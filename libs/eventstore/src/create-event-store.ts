import type { EventStore } from '@portal/domain';
import type pg from 'pg';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';
import type { PostgresEventStoreOptions } from './postgres/postgres-event-store.js';
import { ensureEventStoreSchema } from './postgres/schema.js';

export interface CreateEventStoreOptions {
  /** Keeps the events when no EventStoreDB is configured. Owned by the caller; `close()` leaves it open. */
  readonly databasePool: pg.Pool;
  /** `EVENTSTORE_CONNECTION_STRING`: when set, events go to EventStoreDB. */
  readonly eventStoreConnectionString?: string | undefined;
  readonly postgres?: PostgresEventStoreOptions;
}

/** Chooses the adapter from configuration; for PostgreSQL it first makes sure the tables exist. */
export async function createEventStore(options: CreateEventStoreOptions): Promise<EventStore> {
  if (options.eventStoreConnectionString) {
    return EventStoreDbEventStore.fromConnectionString(options.eventStoreConnectionString);
  }
  const postgresOptions = options.postgres ?? {};
  await ensureEventStoreSchema(
    options.databasePool,
    postgresOptions.schema === undefined ? {} : { schema: postgresOptions.schema },
  );
  return new PostgresEventStore(options.databasePool, postgresOptions);
}
