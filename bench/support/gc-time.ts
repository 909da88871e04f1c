import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** Garbage collection pause seconds in one stretch of a process's life, by kind. */
export interface GcSeconds {
  /** Scavenges of the young generation, and the other pauses node reports (weak callbacks, minor mark-compacts). */
  readonly minor: number;
  /**
   * Mark-compacts of the whole heap, and the start of each incremental marking. The marking steps in
   * between are not reported by node, so this is less than all the time a full collection takes.
   */
  readonly major: number;
}

interface Pause {
  readonly startMs: number;
  readonly durationMs: number;
  readonly major: boolean;
}

function isMajor(entry: PerformanceEntry): boolean {
  const kind = (entry as { readonly detail?: { readonly kind?: number } }).detail?.kind;
  return kind === constants.NODE_PERFORMANCE_GC_MAJOR || kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL;
}

/**
 * Records this process's garbage collection pauses from now on, so a bench can split them between its
 * phases afterwards. Pauses are assigned by when they started (`performance.now()` time), not by when
 * the observer heard of them, since a busy loop delays the observer's callback. Node reports a pause on
 * the event loop after it: ask for a stretch once the process has yielded since it ended.
 */
export function recordGcPauses(): {
  readonly between: (fromMs: number, toMs: number) => GcSeconds;
  readonly stop: () => void;
} {
  const pauses: Pause[] = [];
  const keep = (entries: readonly PerformanceEntry[]): void => {
    for (const entry of entries)
      pauses.push({ startMs: entry.startTime, durationMs: entry.duration, major: isMajor(entry) });
  };
  const observer = new PerformanceObserver((list) => {
    keep(list.getEntries());
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    between: (fromMs, toMs) => {
      // Those not yet handed to the callback.
      keep(observer.takeRecords());
      let minor = 0;
      let major = 0;
      for (const pause of pauses) {
        if (pause.startMs < fromMs || pause.startMs >= toMs) continue;
        if (pause.major) major += pause.durationMs;
        else minor += pause.durationMs;
      }
      return { minor: minor / 1000, major: major / 1000 };
    },
    stop: () => {
      observer.disconnect();
    },
  };
}
