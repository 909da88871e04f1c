import { describe } from 'vitest';
import { EventStoreDbEventStore } from '../src/index.js';
import { eventStoreContract } from './event-store-contract.js';

// No EventStoreDB server can run on the build machines; point this at one to run the suite,
// e.g. EVENTSTORE_CONNECTION_STRING='esdb://127.0.0.1:2113?tls=false'.
const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
if (!connectionString)
  console.info('EventStoreDB contract suite skipped: set EVENTSTORE_CONNECTION_STRING to run it');

describe.skipIf(!connectionString)('EventStoreDbEventStore', () => {
  eventStoreContract({
    createStore: () => Promise.resolve(EventStoreDbEventStore.fromConnectionString(connectionString ?? '')),
    // The server's $all is shared with every other writer, so only this test's streams are asserted.
    exclusive: false,
    uniqueEventIds: false,
    appendsManyInOneTransaction: false,
  });
});
