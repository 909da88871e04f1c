/** What the replay parent hands its worker process (as JSON in `BENCH_REPLAY_JOB`), and gets back. */
export interface ReplayJob {
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
}

export interface ReplayWorkerResult {
  readonly batchSize: number;
  readonly events: number;
  readonly seconds: number;
  readonly batches: number;
  /** Milliseconds since the start at which the checkpoint first passed each segment boundary. */
  readonly segmentEndsMs: readonly number[];
  /** Of the worker process (the projector and nothing else), from `process.resourceUsage()`. */
  readonly peakRssMiB: number;
}

export const REPLAY_JOB_VARIABLE = 'BENCH_REPLAY_JOB';
/** Marks the worker's result line among its other output. */
export const RESULT_PREFIX = 'BENCH_REPLAY_RESULT ';
