import type { Pool } from '@portal/platform';
import type { TimeInterval } from './datetime-interval.js';
import { longestTimeSql } from './item-time-sql.js';
import { keyTimeSql } from './search-token.js';

/**
 * Bounds a time interval implies on the other end of an item's time: an item that ends at or after
 * `start` starts no earlier than `start` − the longest item time, and one that starts at or before `end`
 * ends no later than `end` + it. Written beside the interval's own conditions, they let a scan of either
 * time index begin (ascending) or stop (descending) near the interval instead of at the oldest or newest
 * item. They are read first, in their own statement, so the search's planner sees their values (as
 * sub-selects it had to guess them, and took a bitmap scan and a sort of every match for a time alone).
 * NULL where the interval is open, or where the bound would leave the years the portal keeps.
 */
export interface TimeBounds {
  readonly earliestStart: string | null;
  readonly latestEnd: string | null;
}

export async function timeBounds(pool: Pool, interval: TimeInterval): Promise<TimeBounds> {
  const result = await pool.query<{ earliest_start: string | null; latest_end: string | null }>(
    `SELECT CASE WHEN $1::timestamptz > timestamptz '0001-01-01 00:00:00+00' + d
                 THEN ${keyTimeSql('$1::timestamptz - d')} END AS earliest_start,
            CASE WHEN $2::timestamptz < timestamptz '9999-12-31 23:59:59.999999+00' - d
                 THEN ${keyTimeSql('$2::timestamptz + d')} END AS latest_end
       FROM ${longestTimeSql} AS longest(d)`,
    [interval.start, interval.end],
  );
  const row = result.rows[0];
  return { earliestStart: row?.earliest_start ?? null, latestEnd: row?.latest_end ?? null };
}
