import { afterAll, beforeAll, describe } from 'vitest';
import { PostgresTestStores } from './postgres-test-database.js';
import { upcastOnReadSuite } from './upcast-on-read.js';

describe('PostgresEventStore upcasts on read', () => {
  let stores: PostgresTestStores;
  beforeAll(async () => {
    stores = await PostgresTestStores.open();
  });
  afterAll(() => stores.dispose());

  upcastOnReadSuite(() => stores.createStore());
});
