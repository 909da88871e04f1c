import { inTransaction, type Pool, type PoolClient } from '@portal/platform';

/**
 * Applies `items` on `connections` sessions of `pool` at once, each session in one transaction taking
 * the next item as it finishes one, so the items keep their order of starting. After a failure no
 * session starts another item; once the others have finished theirs, the first failure is thrown.
 */
export async function onConnections<T>(
  pool: Pool,
  items: readonly T[],
  connections: number,
  work: {
    /** Run first in each session's transaction (its `SET LOCAL`s). */
    readonly begin: (client: PoolClient) => Promise<void>;
    readonly apply: (client: PoolClient, item: T) => Promise<void>;
  },
): Promise<void> {
  let next = 0;
  let failed = false;
  const session = (): Promise<void> =>
    inTransaction(pool, async (client) => {
      await work.begin(client);
      while (!failed && next < items.length) {
        const item = items[next] as T;
        next += 1;
        try {
          await work.apply(client, item);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    });
  const sessions = Math.max(1, Math.min(connections, items.length));
  const outcomes = await Promise.allSettled(Array.from({ length: sessions }, session));
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}
