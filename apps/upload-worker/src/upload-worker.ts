import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { contextOfTraceParent, inSpan, SpanKind, tracerOf, type Logger } from '@portal/platform';
import {
  COMPLETE_UPLOAD_JOB,
  SWEEP_UPLOADS_JOB,
  UPLOAD_QUEUE_NAME,
  type CompleteUploadJobData,
  type UploadQueue,
} from '@portal/uploads';
import { completeUpload, type CompletionOutcome } from './complete-upload.js';
import { problemLog } from './problem-log.js';
import { requeueIfRequestedAgain } from './requeue-after-failure.js';
import { settlesWithin } from './within.js';
import { sweepUploads, type SweepReport } from './sweep-uploads.js';
import type { WorkerDependencies } from './worker-dependencies.js';

export interface UploadWorkerSettings {
  readonly prefix: string;
  readonly concurrency: number;
  /** A job whose worker stops renewing its lock this long (a killed process) is handed to another. */
  readonly lockDurationMs: number;
  readonly sweepIntervalMs: number;
}

/**
 * A stalled job (its worker died) goes back to the queue this many times before BullMQ fails it. Every
 * step of a completion is safe to repeat, so a job may stall more than once; one that keeps stalling
 * ends failed, its item stays `processing`, and the sweep enqueues it again later.
 */
const MAX_STALLED_COUNT = 3;

/** A forced close only stops timers and connections; with Redis away even that may hang. */
const FORCED_CLOSE_MS = 3_000;

const tracer = tracerOf('@portal/upload-worker');

export interface RunningWorker {
  readonly worker: Worker;
  /** Stops taking jobs and waits for the active ones, at most `graceMs`; then abandons them to the lock. */
  close(graceMs: number): Promise<void>;
}

/** Starts processing the upload queue and schedules the sweep. */
export function startUploadWorker(
  deps: WorkerDependencies,
  queue: UploadQueue,
  connection: Redis,
  settings: UploadWorkerSettings,
): RunningWorker {
  const { logger } = deps;
  const worker = new Worker(UPLOAD_QUEUE_NAME, (job) => processJob(deps, job), {
    connection,
    prefix: settings.prefix,
    concurrency: settings.concurrency,
    lockDuration: settings.lockDurationMs,
    // Look for stalled jobs as often as a lock can expire, so a killed worker's job resumes soon.
    stalledInterval: settings.lockDurationMs,
    maxStalledCount: MAX_STALLED_COUNT,
  });
  listen(worker, logger);
  worker.on('completed', (job, result) => {
    if (job.name !== COMPLETE_UPLOAD_JOB || !isFailedOutcome(result) || !isCompletionData(job.data)) return;
    const data = { itemId: job.data.itemId, uploadId: job.data.uploadId, requestId: null };
    requeueIfRequestedAgain(deps, data).catch((error: unknown) => {
      logger.warn(
        { err: error, itemId: data.itemId },
        'could not look for a new completion request; the sweep will',
      );
    });
  });
  // On every (re)connection, not awaited: with Redis away, start-up (and SIGTERM handling) must not wait.
  const stopScheduling = queue.keepSweepScheduled(settings.sweepIntervalMs, (error) => {
    logger.error(
      { err: error },
      'the upload sweep could not be scheduled; it is tried again on reconnection',
    );
  });
  return {
    worker,
    close: async (graceMs) => {
      stopScheduling();
      if (await settlesWithin(worker.close(), graceMs)) return;
      logger.warn(
        { graceMs },
        'active jobs did not finish in time; their locks will expire and they will run again',
      );
      await settlesWithin(worker.close(true), FORCED_CLOSE_MS);
    },
  };
}

/**
 * One attempt of a job in a `process <job name>` span. A completion continues the trace of the request
 * that enqueued it (the `traceparent` of its job data), so its events, appended inside this span, carry
 * that trace on to the projector; a sweep starts a trace of its own.
 */
function processJob(deps: WorkerDependencies, job: Job): Promise<CompletionOutcome | SweepReport> {
  const parent = contextOfTraceParent(
    (job.data as { readonly traceParent?: unknown } | undefined)?.traceParent,
  );
  const attributes = {
    'messaging.system': 'bullmq',
    'messaging.destination.name': UPLOAD_QUEUE_NAME,
    'messaging.operation.type': 'process',
    'portal.job.name': job.name,
    'portal.job.attempt': job.attemptsMade + 1,
  };
  const options = { kind: SpanKind.CONSUMER, attributes, ...(parent ? { parent } : {}) };
  return inSpan(tracer, `process ${job.name}`, options, async (span) => {
    const result = await runJob(deps, job);
    if ('outcome' in result) span.setAttribute('portal.upload.outcome', result.outcome);
    return result;
  });
}

function runJob(deps: WorkerDependencies, job: Job): Promise<CompletionOutcome | SweepReport> {
  switch (job.name) {
    case COMPLETE_UPLOAD_JOB:
      if (!isCompletionData(job.data)) {
        throw new UnrecoverableError('complete-upload job without an itemId and uploadId');
      }
      return completeUpload(deps, {
        id: job.id,
        data: { itemId: job.data.itemId, uploadId: job.data.uploadId, requestId: job.data.requestId ?? null },
        attemptsMade: job.attemptsMade,
        opts: { attempts: job.opts.attempts },
      });
    case SWEEP_UPLOADS_JOB:
      return sweepUploads(deps, job.id ?? SWEEP_UPLOADS_JOB);
    default:
      throw new UnrecoverableError(`unknown job ${job.name}`);
  }
}

function isFailedOutcome(result: unknown): boolean {
  return (result as Partial<CompletionOutcome> | undefined)?.outcome === 'failed';
}

/** Job data comes from Redis, written by any version of the API: checked, never trusted. */
function isCompletionData(data: unknown): data is Omit<CompleteUploadJobData, 'requestId'> & {
  readonly requestId?: string | null;
} {
  if (typeof data !== 'object' || data === null) return false;
  const { itemId, uploadId, requestId } = data as Record<string, unknown>;
  return (
    typeof itemId === 'string' &&
    typeof uploadId === 'string' &&
    (requestId === null || requestId === undefined || typeof requestId === 'string')
  );
}

/** Every problem is logged and none crashes the process: BullMQ reconnects and retries on its own. */
function listen(worker: Worker, logger: Logger): void {
  worker.on('error', problemLog(logger, 'upload worker problem').problem);
  worker.on('failed', (job, error) => {
    logger.warn(
      { err: error, jobId: job?.id, job: job?.name, attemptsMade: job?.attemptsMade },
      'job attempt failed',
    );
  });
  worker.on('stalled', (jobId) => {
    logger.warn({ jobId }, 'job stalled (its worker stopped); it runs again');
  });
}
