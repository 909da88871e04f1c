import { createLogger, type Pool } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { PendingListMerger } from './pending-lists.js';

/**
 * A pool that lists one GIN index and answers its merge with `merge` (PostgreSQL itself is in
 * pending-lists.int.test.ts): what the merger decides around a merge needs no server to check.
 */
function fakePool(merge: () => Promise<unknown>): {
  pool: Pool;
  listings: () => number;
  merges: () => number;
} {
  let listings = 0;
  let merges = 0;
  const query = (text: string) => {
    if (text.includes('gin_clean_pending_list')) {
      merges += 1;
      return merge();
    }
    return Promise.resolve({ rows: [] });
  };
  const client = { on: () => client, off: () => client, release: () => undefined, query };
  const pool = {
    connect: () => Promise.resolve(client),
    query: (text: string) => {
      if (!text.includes('pg_class')) return query(text);
      listings += 1;
      return Promise.resolve({ rows: [{ name: 'read.portal_objects_read_principals' }] });
    },
  };
  return { pool: pool as unknown as Pool, listings: () => listings, merges: () => merges };
}

const silent = createLogger({ name: 'test', level: 'silent' });

function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('PendingListMerger', () => {
  it('starts no second merge while one is running, and counts the events meanwhile toward the next', async () => {
    let finishFirst: () => void = () => undefined;
    const first = new Promise((resolve) => {
      finishFirst = () => {
        resolve({ rows: [{ pages: 3 }] });
      };
    });
    const { pool, listings, merges } = fakePool(() =>
      merges() === 1 ? first : Promise.resolve({ rows: [{ pages: 0 }] }),
    );
    const merger = new PendingListMerger(pool, 'read', silent, 10);

    merger.eventsApplied(10);
    for (let tick = 0; merges() === 0 && tick < 100; tick += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    merger.eventsApplied(10);
    merger.eventsApplied(10);
    finishFirst();
    await merger.settled();
    expect(listings()).toBe(1);

    // The 20 events applied during the first merge count: one more starts the next.
    merger.eventsApplied(1);
    await merger.settled();
    expect(listings()).toBe(2);
  });

  it('never merges when told 0 events', async () => {
    const { pool, listings } = fakePool(() => Promise.resolve({ rows: [{ pages: 1 }] }));
    const merger = new PendingListMerger(pool, 'read', silent, 0);

    merger.eventsApplied(1_000_000);
    await merger.settled();
    expect(listings()).toBe(0);
  });

  it('leaves an index its role does not own to the inserts from then on', async () => {
    const { pool, merges } = fakePool(() => Promise.reject(failure('42501', 'must be owner of index')));
    const merger = new PendingListMerger(pool, 'read', silent, 10);

    merger.eventsApplied(10);
    await merger.settled();
    merger.eventsApplied(10);
    await merger.settled();
    expect(merges()).toBe(1);
  });

  it('tries again after any other failure', async () => {
    const { pool, merges } = fakePool(() =>
      Promise.reject(failure('55P03', 'canceling statement due to lock timeout')),
    );
    const merger = new PendingListMerger(pool, 'read', silent, 10);

    merger.eventsApplied(10);
    await merger.settled();
    merger.eventsApplied(10);
    await merger.settled();
    expect(merges()).toBe(2);
  });
});
