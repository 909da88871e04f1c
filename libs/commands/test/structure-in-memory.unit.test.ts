import { describe } from 'vitest';
import { InMemoryEventStore } from '@portal/eventstore';
import { structureContract } from './structure-contract.js';

describe('structure invariants on the in-memory event store', () => {
  structureContract({ createStore: () => Promise.resolve(new InMemoryEventStore()) });
});
