import { cpuSince, markCpu } from '../support/cpu.js';
import { cpuMsPer, markCpuBreakdown, type AppPids, type CpuBreakdown } from '../support/process-breakdown.js';
import { perSecond, summarize, type LatencySummary } from '../support/stats.js';

/** One request (HTTP or SQL); resolves `false` for an answer that is not the expected one. */
export type Probe = (sequence: number) => Promise<boolean>;

export interface LoadResult {
  readonly latency: LatencySummary;
  readonly requestsPerSecond: number;
  readonly failed: number;
  readonly machineBusyPercent: number;
  readonly benchProcessPercent: number;
  /**
   * CPU milliseconds per request of each process (the API, PostgreSQL, the bench…) in the window;
   * null when no request was sent in it.
   */
  readonly cpuMsPerRequest: ReturnType<typeof cpuMsPer> | null;
}

/**
 * `clients` loops, each sending its next request as soon as the previous one answered, for `warmupMs`
 * unmeasured and then `durationMs` measured: a request counts when it was sent inside the window.
 */
export async function runClosedLoop(
  probe: Probe,
  options: {
    readonly clients: number;
    readonly warmupMs: number;
    readonly durationMs: number;
    /** The service's processes, so their CPU is told apart from PostgreSQL's and the bench's. */
    readonly apps?: AppPids;
  },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let failed = 0;
  let sequence = 0;
  let lastAnsweredAt = 0;
  const startedAt = performance.now();
  const measureFrom = startedAt + options.warmupMs;
  const measureUntil = measureFrom + options.durationMs;
  let cpu = markCpu();
  let endBreakdown: (() => CpuBreakdown) | null = null;
  let cpuMarked = false;
  const client = async (): Promise<void> => {
    for (;;) {
      const sentAt = performance.now();
      if (sentAt >= measureUntil) return;
      if (!cpuMarked && sentAt >= measureFrom) {
        cpuMarked = true;
        cpu = markCpu();
        endBreakdown = markCpuBreakdown(options.apps ?? {});
      }
      let ok: boolean;
      try {
        ok = await probe(sequence++);
      } catch {
        ok = false;
      }
      if (sentAt < measureFrom) continue;
      const answeredAt = performance.now();
      lastAnsweredAt = Math.max(lastAnsweredAt, answeredAt);
      if (ok) latencies.push(answeredAt - sentAt);
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: options.clients }, client));
  const share = cpuSince(cpu);
  const breakdown = (endBreakdown as (() => CpuBreakdown) | null)?.() ?? null;
  return {
    latency: summarize(latencies),
    // Requests sent in the window, over the time until the last of them answered.
    requestsPerSecond: perSecond(
      latencies.length,
      Math.max(options.durationMs, lastAnsweredAt - measureFrom),
    ),
    failed,
    ...share,
    cpuMsPerRequest: breakdown ? cpuMsPer(breakdown, latencies.length + failed) : null,
  };
}
