import { createHash } from 'node:crypto';
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { currentTraceParent, inSpan, SpanKind, tracerOf } from '@portal/platform';

/** Job states of the queue worth watching (metrics, the admin console); completed jobs are removed. */
export const WATCHED_JOB_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;
export type WatchedJobState = (typeof WATCHED_JOB_STATES)[number];

/** One BullMQ queue carries both kinds of upload work. */
export const UPLOAD_QUEUE_NAME = 'uploads';
export const COMPLETE_UPLOAD_JOB = 'complete-upload';
export const SWEEP_UPLOADS_JOB = 'sweep-uploads';

export interface CompleteUploadJobData {
  readonly itemId: string;
  readonly uploadId: string;
  /** The request that asked for completion, so the worker's log lines and events can name it. */
  readonly requestId: string | null;
  /**
   * The W3C `traceparent` of the span that enqueued the job, while tracing is on: the worker's job span
   * continues that trace. Written by `enqueueCompletion`; absent from jobs of a process without tracing.
   */
  readonly traceParent?: string;
}

const tracer = tracerOf('@portal/uploads');

/**
 * The job id of a completion, derived from the upload id: a client retrying `complete`, or the sweep
 * re-enqueueing a stuck completion, lands on the same job instead of starting a second one. Hashed
 * because upload ids are long and may hold characters BullMQ reserves (`:`).
 */
export function completionJobId(uploadId: string): string {
  return `complete-${createHash('sha256').update(uploadId).digest('hex').slice(0, 40)}`;
}

export interface CompletionRetries {
  readonly attempts: number;
  /** First retry delay; BullMQ doubles it on every attempt. */
  readonly delayMs: number;
}

/** A job in this state will still run: it is not done, failed for good, or gone. */
export function isPending(state: string): boolean {
  return !['completed', 'failed', 'unknown'].includes(state);
}

/** The producer side: the API enqueues completions, the worker's sweep re-enqueues lost ones. */
export class UploadQueue {
  readonly queue: Queue;

  constructor(
    private readonly connection: Redis,
    prefix: string,
    private readonly retries: CompletionRetries,
  ) {
    this.queue = new Queue(UPLOAD_QUEUE_NAME, { connection, prefix });
  }

  /**
   * Enqueues a completion under its upload's job id, in a `send complete-upload` producer span whose
   * `traceparent` the job carries.
   */
  enqueueCompletion(data: CompleteUploadJobData): Promise<void> {
    const attributes = {
      'messaging.system': 'bullmq',
      'messaging.destination.name': UPLOAD_QUEUE_NAME,
      'messaging.operation.type': 'send',
      'portal.job.name': COMPLETE_UPLOAD_JOB,
    };
    return inSpan(tracer, `send ${COMPLETE_UPLOAD_JOB}`, { kind: SpanKind.PRODUCER, attributes }, () => {
      const traceParent = currentTraceParent();
      return this.addCompletion(traceParent === undefined ? data : { ...data, traceParent });
    });
  }

  private async addCompletion(data: CompleteUploadJobData): Promise<void> {
    const jobId = completionJobId(data.uploadId);
    // A finished job keeps its id until removed; an earlier completion that ended (the client fixed a
    // missing part and completes again) must not swallow the new one.
    const previous = await this.queue.getJob(jobId);
    if (previous) {
      const state = await previous.getState();
      if (state === 'completed' || state === 'failed') await previous.remove();
    }
    await this.queue.add(COMPLETE_UPLOAD_JOB, data, {
      jobId,
      attempts: this.retries.attempts,
      backoff: { type: 'exponential', delay: this.retries.delayMs },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 86_400 },
    });
  }

  /** Whether a completion job for the upload is still to run (waiting, delayed for a retry, or active). */
  async hasPendingCompletion(uploadId: string): Promise<boolean> {
    return isPending(await this.completionState(uploadId));
  }

  /** The state of the upload's completion job: BullMQ's name for it, `unknown` when there is none. */
  completionState(uploadId: string): Promise<string> {
    return this.queue.getJobState(completionJobId(uploadId));
  }

  /** The upload's completion job as BullMQ keeps it (attempts, failure reason, times), if it has one. */
  async completionJob(uploadId: string): Promise<Job<CompleteUploadJobData> | undefined> {
    return (await this.queue.getJob(completionJobId(uploadId))) as Job<CompleteUploadJobData> | undefined;
  }

  /**
   * Runs the sweep every `everyMs`. Idempotent: every worker calls it at start, and Redis keeps one
   * schedule, so the sweep runs once per interval however many workers there are.
   */
  async scheduleSweep(everyMs: number): Promise<void> {
    await this.queue.upsertJobScheduler(
      SWEEP_UPLOADS_JOB,
      { every: everyMs },
      { name: SWEEP_UPLOADS_JOB, data: {}, opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
  }

  /**
   * Schedules the sweep now and again whenever the connection comes back: a Redis restarted without
   * persistence has forgotten the schedule along with every job. Answers a function that stops it.
   */
  keepSweepScheduled(everyMs: number, onError: (error: unknown) => void): () => void {
    const schedule = (): void => {
      this.scheduleSweep(everyMs).catch(onError);
    };
    this.connection.on('ready', schedule);
    if (this.connection.status === 'ready') schedule();
    return () => {
      this.connection.off('ready', schedule);
    };
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
