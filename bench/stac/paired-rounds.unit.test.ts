import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../browser/closed-loop.js';
import { summarize } from '../support/stats.js';
import {
  httpFirst,
  httpShare,
  measurePairs,
  medianPair,
  roundRobin,
  type RoundPair,
} from './paired-rounds.js';

function rate(requestsPerSecond: number): LoadResult {
  return {
    latency: summarize([1]),
    requestsPerSecond,
    failed: 0,
    machineBusyPercent: 0,
    benchProcessPercent: 0,
    cpuMsPerRequest: null,
  };
}

function pair(http: number, sql: number): RoundPair {
  return { http: rate(http), sql: rate(sql) };
}

describe('medianPair', () => {
  it('takes the pair of the median share, not the median of each path', () => {
    const pairs = [pair(400, 1000), pair(600, 1000), pair(300, 500), pair(500, 2000), pair(900, 2000)];
    // Shares 0.40, 0.60, 0.60, 0.25, 0.45: the median share is 0.45 (the last pair), while the median
    // HTTP rate (500) and the median SQL rate (1000) belong to other pairs.
    expect(medianPair(pairs)).toBe(pairs[4]);
    expect(httpShare(medianPair(pairs))).toBeCloseTo(0.45);
  });

  it('takes the lower middle pair of an even count, and a lone pair as it is', () => {
    const pairs = [pair(600, 1000), pair(400, 1000), pair(500, 1000), pair(700, 1000)];
    expect(httpShare(medianPair(pairs))).toBeCloseTo(0.5);
    expect(medianPair([pairs[0] as RoundPair])).toBe(pairs[0]);
    expect(() => medianPair([])).toThrow(RangeError);
  });
});

describe('httpShare', () => {
  it('is never NaN: only HTTP answering is the highest share, SQL alone or neither the lowest', () => {
    expect(httpShare(pair(0, 0))).toBe(0);
    expect(httpShare(pair(0, 100))).toBe(0);
    expect(httpShare(pair(100, 0))).toBe(Number.POSITIVE_INFINITY);
    expect(medianPair([pair(100, 0), pair(0, 0), pair(50, 100)])).toEqual(pair(50, 100));
  });
});

describe('roundRobin', () => {
  it('deals the items in turn, whatever asks for them', () => {
    const next = roundRobin(['a', 'b', 'c']);
    expect(Array.from({ length: 7 }, next)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
    expect(() => roundRobin([])).toThrow(RangeError);
  });
});

describe('measurePairs', () => {
  it('alternates which path goes first, ABBA, so drift favours neither', async () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(httpFirst)).toEqual([
      true,
      false,
      false,
      true,
      true,
      false,
      false,
      true,
    ]);
    const order: string[] = [];
    const probe = (name: string) => async () => {
      if (order.at(-1) !== name) order.push(name);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return true;
    };
    const pairs = await measurePairs(
      { http: probe('http'), sql: probe('sql') },
      { clients: 1, warmupMs: 0, durationMs: 5 },
      4,
    );
    expect(pairs).toHaveLength(4);
    // http sql | sql http | sql http | http sql, each run of one path written once.
    expect(order).toEqual(['http', 'sql', 'http', 'sql', 'http', 'sql']);
    for (const measured of pairs) {
      expect(measured.http.requestsPerSecond).toBeGreaterThan(0);
      expect(measured.sql.requestsPerSecond).toBeGreaterThan(0);
    }
  });
});
