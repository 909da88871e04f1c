import type { Job, Queue, Worker } from 'bullmq';
import { Counter, Gauge, Histogram, type Logger, type Registry } from '@portal/platform';
import { COMPLETE_UPLOAD_JOB, SWEEP_UPLOADS_JOB, WATCHED_JOB_STATES } from '@portal/uploads';
import type { CompletionOutcome } from '../complete-upload.js';
import type { SweepReport } from '../sweep-uploads.js';

const QUEUE_STATES = WATCHED_JOB_STATES;
/** A scrape must answer even with Redis away: the counts are then left as they were. */
const QUEUE_COUNT_TIMEOUT_MS = 2_000;
const COMPLETION_OUTCOMES = ['ready', 'failed', 'aborted', 'skipped', 'error'] as const;
const SWEEP_ACTIONS = ['expired', 'aborted', 'requeued', 'skipped', 'errors'] as const;

type CompletionLabel = (typeof COMPLETION_OUTCOMES)[number];

/**
 * The upload queue and its worker: queue depth by state (read at scrape time), each job's duration,
 * what completions ended as, and what sweeps did. Taken from the worker's own events, so the job code
 * knows nothing of metrics.
 */
export function observeUploadWorker(
  registry: Registry,
  queue: Pick<Queue, 'getJobCounts'>,
  worker: Pick<Worker, 'on'>,
  log: Logger,
): void {
  new Gauge({
    name: 'portal_upload_queue_jobs',
    help: 'Jobs in the upload queue by state (waiting, prioritized, active, delayed, failed).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const counts = await withTimeout(queue.getJobCounts(...QUEUE_STATES), QUEUE_COUNT_TIMEOUT_MS).catch(
        (error: unknown) => {
          log.debug({ err: error }, 'upload queue counts not readable for metrics');
          return null;
        },
      );
      if (counts) for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  const duration = new Histogram({
    name: 'portal_upload_job_duration_seconds',
    help: 'Time of one attempt of an upload-queue job (complete_upload, sweep_uploads), by whether it threw.',
    labelNames: ['job', 'result'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const completions = new Counter({
    name: 'portal_upload_completions_total',
    help: 'Completion job attempts by outcome: ready, failed (the item is marked failed), aborted, skipped, error (the attempt threw; retried while attempts remain).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of COMPLETION_OUTCOMES) completions.inc({ outcome }, 0);
  const sweepActions = new Counter({
    name: 'portal_upload_sweep_actions_total',
    help: 'What the upload sweeps did: expired, aborted, requeued, skipped (read model behind), errors.',
    labelNames: ['action'] as const,
    registers: [registry],
  });
  for (const action of SWEEP_ACTIONS) sweepActions.inc({ action }, 0);

  worker.on('completed', (job: Job, result: unknown) => {
    observeDuration(duration, job, 'ok');
    if (job.name === COMPLETE_UPLOAD_JOB) completions.inc({ outcome: completionLabel(result) });
    if (job.name === SWEEP_UPLOADS_JOB && isSweepReport(result)) {
      for (const action of SWEEP_ACTIONS)
        if (result[action] > 0) sweepActions.inc({ action }, result[action]);
    }
  });
  worker.on('failed', (job: Job | undefined) => {
    if (!job) return;
    observeDuration(duration, job, 'error');
    if (job.name === COMPLETE_UPLOAD_JOB) completions.inc({ outcome: 'error' });
  });
}

/** Only the names the queue knows become label values. */
function jobLabel(name: string): string {
  if (name === COMPLETE_UPLOAD_JOB) return 'complete_upload';
  if (name === SWEEP_UPLOADS_JOB) return 'sweep_uploads';
  return 'other';
}

function observeDuration(duration: Histogram<'job' | 'result'>, job: Job, result: 'ok' | 'error'): void {
  if (!job.processedOn) return;
  const seconds = Math.max(0, (job.finishedOn ?? Date.now()) - job.processedOn) / 1000;
  duration.observe({ job: jobLabel(job.name), result }, seconds);
}

function completionLabel(result: unknown): CompletionLabel {
  const outcome = (result as Partial<CompletionOutcome> | undefined)?.outcome;
  return outcome === 'ready' || outcome === 'failed' || outcome === 'aborted' || outcome === 'skipped'
    ? outcome
    : 'error';
}

function isSweepReport(result: unknown): result is SweepReport {
  return typeof result === 'object' && result !== null && typeof (result as SweepReport).expired === 'number';
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => {
    clearTimeout(timer);
  });
}
