import type { LatencySummary } from '../support/stats.js';

/**
 * Latencies in fixed 0.1 ms buckets up to a minute: a million client-events a minute would not fit in an
 * array of samples cheaply, and a tenth of a millisecond is finer than anything reported.
 */
export class LatencyHistogram {
  private static readonly BUCKET_MS = 0.1;
  private readonly buckets = new Uint32Array(600_000);
  private overflow = 0;
  private maxMs = 0;
  count = 0;
  /** Negative latencies (the event came before its reference moment was seen here): counted as 0 ms. */
  early = 0;

  record(ms: number): void {
    this.count += 1;
    if (ms < 0) this.early += 1;
    const clamped = Math.max(0, ms);
    if (clamped > this.maxMs) this.maxMs = clamped;
    const bucket = Math.floor(clamped / LatencyHistogram.BUCKET_MS);
    if (bucket >= this.buckets.length) this.overflow += 1;
    else this.buckets[bucket] = (this.buckets[bucket] ?? 0) + 1;
  }

  /** Nearest rank, the upper edge of the bucket holding it (at most the maximum). */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let bucket = 0; bucket < this.buckets.length; bucket += 1) {
      seen += this.buckets[bucket] ?? 0;
      // Never above the largest value seen: the top bucket's edge may be.
      if (seen >= rank) return Math.min((bucket + 1) * LatencyHistogram.BUCKET_MS, this.maxMs);
    }
    return this.maxMs;
  }

  summary(): LatencySummary {
    return {
      count: this.count,
      p50: this.percentile(50),
      p95: this.percentile(95),
      p99: this.percentile(99),
      max: this.count === 0 ? Number.NaN : this.maxMs,
    };
  }
}
