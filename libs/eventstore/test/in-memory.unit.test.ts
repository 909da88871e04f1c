import { describe } from 'vitest';
import { InMemoryEventStore } from '../src/index.js';
import { eventStoreContract } from './event-store-contract.js';

describe('InMemoryEventStore', () => {
  eventStoreContract({
    createStore: () => Promise.resolve(new InMemoryEventStore()),
    exclusive: true,
    uniqueEventIds: true,
    appendsManyInOneTransaction: true,
  });
});
