import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux everywhere that matters). */
const TICKS_PER_SECOND = 100;

/** User and system CPU seconds `pid` has used so far; NaN when it cannot be read. */
export function cpuSeconds(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: state is 3rd, utime the 14th, stime the 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Starts counting another process's CPU time; the returned function gives its share of one core, 0–100+. */
export function markProcessCpu(pid: number): () => number {
  const startCpu = cpuSeconds(pid);
  const startAt = performance.now();
  return () => (100 * (cpuSeconds(pid) - startCpu)) / ((performance.now() - startAt) / 1000);
}
