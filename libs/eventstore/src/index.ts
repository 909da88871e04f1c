export { createEventStore, type CreateEventStoreOptions } from './create-event-store.js';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres/postgres-event-store.js';
export { ensureEventStoreSchema, defaultEventStoreSchema } from './postgres/schema.js';
export { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store.js';
export { InMemoryEventStore } from './in-memory/in-memory-event-store.js';
export { DuplicateEventIdError } from './append-rules.js';
export { observeAppends } from './observed-event-store.js';
