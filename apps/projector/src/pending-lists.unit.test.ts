import { createLogger, type Pool } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { PendingListMerger } from './pending-lists.js';

/**
 * A pool whose every merge fails with `error` (PostgreSQL itself is in pending-lists.int.test.ts):
 * what the merger does after a failure is its own decision, which needs no server to check.
 */
function failingPool(error: Error & { code?: string }): { pool: Pool; merges: () => number } {
  let merges = 0;
  const client = {
    on: () => client,
    off: () => client,
    release: () => undefined,
    query: (text: string) => {
      if (text.includes('gin_clean_pending_list')) {
        merges += 1;
        return Promise.reject(error);
      }
      return Promise.resolve({ rows: [] });
    },
  };
  return { pool: { connect: () => Promise.resolve(client) } as unknown as Pool, merges: () => merges };
}

const silent = createLogger({ name: 'test', level: 'silent' });

describe('PendingListMerger after a failed merge', () => {
  it('stops merging when the projector does not own the indexes', async () => {
    const notOwner = Object.assign(new Error('must be owner of index portal_objects_text_trgm'), {
      code: '42501',
    });
    const { pool, merges } = failingPool(notOwner);
    const merger = new PendingListMerger(pool, 'read', silent, 10);

    merger.eventsApplied(10);
    await merger.settled();
    merger.eventsApplied(10);
    await merger.settled();
    expect(merges()).toBe(1);
  });

  it('tries again after any other failure', async () => {
    const timedOut = Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });
    const { pool, merges } = failingPool(timedOut);
    const merger = new PendingListMerger(pool, 'read', silent, 10);

    merger.eventsApplied(10);
    await merger.settled();
    merger.eventsApplied(10);
    await merger.settled();
    expect(merges()).toBe(2);
  });
});
