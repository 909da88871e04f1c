import { afterAll, beforeAll, describe } from 'vitest';
import { eventStoreContract } from './event-store-contract.js';
import { PostgresTestStores } from './postgres-test-database.js';

describe('PostgresEventStore', () => {
  let stores: PostgresTestStores;
  beforeAll(async () => {
    stores = await PostgresTestStores.open();
  });
  afterAll(() => stores.dispose());

  eventStoreContract({
    createStore: () => stores.createStore(),
    exclusive: true,
    uniqueEventIds: true,
    appendsManyInOneTransaction: true,
  });
});
