import type { StatementTime } from '../../apps/projector/src/index.js';
import type { GcSeconds } from '../support/gc-time.js';
/**
 * How a worker replays: `projector` runs the projector from START into a fresh read schema;
 * `rebuild-lean` and `rebuild-full` run the rebuild into it in batches (a lean one builds the reader
 * indexes after the replay; a full one creates them before, as rebuilds did before lean ones); `copy`
 * runs the rebuild that folds the history in memory and writes each table once by COPY (then lean).
 */
export const replayModes = ['projector', 'rebuild-lean', 'rebuild-full', 'copy'] as const;
export type ReplayMode = (typeof replayModes)[number];

/** What the replay parent hands its worker process (as JSON in `BENCH_REPLAY_JOB`), and gets back. */
export interface ReplayJob {
  readonly mode: ReplayMode;
  readonly databaseUrl: string;
  readonly eventsSchema: string;
  readonly readSchema: string;
  readonly operationsSchema: string;
  readonly batchSize: number;
  /** `formatPosition` of the newest seeded event: the replay is done when the checkpoint reaches it. */
  readonly head: string;
  /** How many events were seeded; their global positions are 1..events. */
  readonly events: number;
  /** A rate is reported for every this many events. */
  readonly segmentEvents: number;
  readonly timeoutMs: number;
  /** A rebuild's `maintenance_work_mem` for its reader indexes; null: the projector's default. */
  readonly indexBuildMemory: string | null;
}

export interface ReplayWorkerResult {
  readonly mode: ReplayMode;
  readonly batchSize: number;
  readonly events: number;
  readonly seconds: number;
  readonly batches: number;
  /** Milliseconds since the start at which the checkpoint first passed each segment boundary. */
  readonly segmentEndsMs: readonly number[];
  /** Of the worker process (the projector and nothing else), from `process.resourceUsage()`. */
  readonly peakRssMiB: number;
  /** The node flags the worker ran with (`process.execArgv`): the loader's and any given to it. */
  readonly nodeFlags: readonly string[];
  /** A rebuild's reader statements (indexes, statistics, triggers): each one's milliseconds; none for `projector`. */
  readonly readerStatementsMs: readonly StatementTime[] | null;
  /** A rebuild's seconds in its phases (replay, reader indexes and triggers, ANALYZE, swap); none for `projector`. */
  readonly phaseSeconds: {
    readonly replay: number;
    readonly readerDdl: number;
    readonly analyze: number;
    readonly swap: number;
  } | null;
  /**
   * A rebuild's replay split where its last batch was replayed (a copy rebuild: the fold reached the
   * head, then its tables were written), with this process's CPU seconds in each part and after.
   */
  readonly foldSplit: {
    readonly foldSeconds: number;
    readonly writeSeconds: number;
    readonly foldCpuSeconds: number;
    readonly writeCpuSeconds: number;
    /** Reader DDL, ANALYZE and the swap. */
    readonly restCpuSeconds: number;
    /** This process's garbage collection pauses in the fold and in the write. */
    readonly foldGc: GcSeconds;
    readonly writeGc: GcSeconds;
  } | null;
}

export const REPLAY_JOB_VARIABLE = 'BENCH_REPLAY_JOB';
/** Marks the worker's result line among its other output. */
export const RESULT_PREFIX = 'BENCH_REPLAY_RESULT ';
/** A rebuild's fresh schema is `<read schema>_rebuild_<stamp>` until it is swapped in: the parent analyzes it. */
export const REBUILD_STAMP = 'bench';
