import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Where the CPU time went during one measurement: the machine is shared, so this says how busy it was. */
export interface CpuShare {
  /** All cores together, 0–100. */
  readonly machineBusyPercent: number;
  /** This benchmark process (the HTTP clients), as a share of all cores, 0–100. */
  readonly benchProcessPercent: number;
}

interface CpuMark {
  readonly busyTicks: number;
  readonly totalTicks: number;
  readonly processMicros: number;
  readonly at: number;
}

function machineTicks(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the idle columns.
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

export function markCpu(): CpuMark {
  const { busy, total } = machineTicks();
  const usage = process.cpuUsage();
  return {
    busyTicks: busy,
    totalTicks: total,
    processMicros: usage.user + usage.system,
    at: performance.now(),
  };
}

export function cpuSince(mark: CpuMark): CpuShare {
  const now = markCpu();
  const wallMicros = (now.at - mark.at) * 1000 * availableParallelism();
  return {
    machineBusyPercent: (100 * (now.busyTicks - mark.busyTicks)) / (now.totalTicks - mark.totalTicks),
    benchProcessPercent: (100 * (now.processMicros - mark.processMicros)) / wallMicros,
  };
}
