import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The process listening on `port` on this machine (the stack's API), found with `ss`. */
export function pidListeningOn(port: number): number | null {
  try {
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
    const match = /pid=(\d+)/.exec(out);
    return match?.[1] ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export interface MemorySample {
  /** Resident set size, MiB. */
  readonly rssMiB: number;
  /** The anonymous part of it (V8's heap, buffers, native allocations): what grows with clients. */
  readonly anonMiB: number;
}

function kibField(status: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] ? Number(match[1]) / 1024 : Number.NaN;
}

export function sampleMemory(pid: number): MemorySample {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rssMiB: kibField(status, 'VmRSS'), anonMiB: kibField(status, 'RssAnon') };
  } catch {
    return { rssMiB: Number.NaN, anonMiB: Number.NaN };
  }
}

/** Samples every `intervalMs` and keeps the peak; `stop` returns it. */
export function watchPeakMemory(pid: number, intervalMs = 500): () => MemorySample {
  let peak: MemorySample = sampleMemory(pid);
  const timer = setInterval(() => {
    const sample = sampleMemory(pid);
    if (sample.rssMiB > peak.rssMiB) peak = sample;
  }, intervalMs);
  return () => {
    clearInterval(timer);
    return peak;
  };
}
