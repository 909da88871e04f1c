import { runClosedLoop, type LoadResult, type Probe } from '../browser/closed-loop.js';

/** One round of a view: HTTP and direct SQL measured back to back under the same load. */
export interface RoundPair {
  readonly http: LoadResult;
  readonly sql: LoadResult;
}

/** HTTP's rate as a share of direct SQL's in one round (NaN when SQL answered nothing). */
export function httpShare(pair: RoundPair): number {
  return pair.http.requestsPerSecond / pair.sql.requestsPerSecond;
}

/**
 * The round whose HTTP share is the median (the lower of the two middle ones for an even count): a pair
 * actually measured, so its latencies and CPU belong with its rates.
 */
export function medianPair<T extends RoundPair>(pairs: readonly T[]): T {
  const sorted = [...pairs].sort((a, b) => httpShare(a) - httpShare(b));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (median === undefined) throw new RangeError('no rounds');
  return median;
}

/**
 * Which path goes first in round `round` (0-based): HTTP, SQL, SQL, HTTP, HTTP, SQL… (ABBA), so a
 * machine that speeds up or slows down through the rounds favours neither path.
 */
export function httpFirst(round: number): boolean {
  return round % 4 === 0 || round % 4 === 3;
}

/**
 * `rounds` pairs of the two probes under the same load, each path measured for the load's duration.
 * A shared VM's speed drifts by a fifth between neighbouring runs, more than the gap between the two
 * paths' rates: one HTTP run beside one SQL run can land on either side of it, a median of
 * alternated pairs does not.
 */
export async function measurePairs(
  probes: { readonly http: Probe; readonly sql: Probe },
  load: Parameters<typeof runClosedLoop>[1],
  rounds: number,
): Promise<RoundPair[]> {
  const pairs: RoundPair[] = [];
  for (let round = 0; round < rounds; round += 1) {
    if (httpFirst(round)) {
      const http = await runClosedLoop(probes.http, load);
      pairs.push({ http, sql: await runClosedLoop(probes.sql, load) });
    } else {
      const sql = await runClosedLoop(probes.sql, load);
      pairs.push({ http: await runClosedLoop(probes.http, load), sql });
    }
  }
  return pairs;
}
