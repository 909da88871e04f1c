import { describe } from 'vitest';
import { EventStoreDbEventStore } from '@portal/eventstore';
import { structureContract } from './structure-contract.js';

// No EventStoreDB server can run on the build machines; point this at one to run the suite,
// e.g. EVENTSTORE_CONNECTION_STRING='esdb://127.0.0.1:2113?tls=false'.
const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
if (!connectionString) {
  console.info('EventStoreDB structure suite skipped: set EVENTSTORE_CONNECTION_STRING to run it');
}

describe.skipIf(!connectionString)('structure invariants on EventStoreDB', () => {
  structureContract({
    createStore: () => Promise.resolve(EventStoreDbEventStore.fromConnectionString(connectionString ?? '')),
  });
});
