import { runClosedLoop, type LoadResult, type Probe } from '../browser/closed-loop.js';

/** One round of a view: HTTP and direct SQL measured back to back under the same load. */
export interface RoundPair {
  readonly http: LoadResult;
  readonly sql: LoadResult;
}

/**
 * An HTTP rate as a share of a direct SQL rate: Infinity when only HTTP answered, 0 when SQL alone or
 * neither did (never NaN, which would leave the order of a sort undefined).
 */
export function shareOf(httpPerSecond: number, sqlPerSecond: number): number {
  if (sqlPerSecond > 0) return httpPerSecond / sqlPerSecond;
  return httpPerSecond > 0 ? Number.POSITIVE_INFINITY : 0;
}

/** HTTP's rate as a share of direct SQL's in one round. */
export function httpShare(pair: RoundPair): number {
  return shareOf(pair.http.requestsPerSecond, pair.sql.requestsPerSecond);
}

/**
 * A function that gives the items in turn, round robin: each call the next. The HTTP probe takes its
 * API process from it rather than from the request's sequence number, which also picks the request's
 * target: dealt by sequence, two processes would each serve the same half of the targets every time.
 */
export function roundRobin<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new RangeError('nothing to deal');
  let turn = 0;
  return () => {
    const item = items[turn % items.length] as T;
    turn += 1;
    return item;
  };
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
 * `rounds` pairs of the two probes under the same load, each path measured for the load's duration: a
 * median of alternated pairs is less at the mercy of a shared machine's drift than one pair
 * (bench/README.md, "The HTTP share as a median of paired rounds").
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
