import { isUuid } from '@portal/domain';
import { COMPLETE_UPLOAD_JOB, isPending, WATCHED_JOB_STATES, type WatchedJobState } from '@portal/uploads';
import type { Job } from 'bullmq';
import { loadItem } from '../../../apps/upload-worker/src/item-stream.js';
import { requeueCompletion } from '../../../apps/upload-worker/src/requeue-completion.js';
import { SweepQueries } from '../../../apps/upload-worker/src/sweep-queries.js';
import { arg, defineCommand, stringOption, type AdminContext, type CommandInput } from '../cli/command.js';
import { notFound, refused, usageFailure } from '../cli/failure.js';
import { clip, table, when } from '../cli/table.js';

const MAX_LIMIT = 1000;

function itemIdOf(input: CommandInput): string {
  const itemId: unknown = arg(input, 'itemId');
  if (!isUuid(itemId)) {
    throw usageFailure(`<itemId> must be an item's id (a UUID), not "${arg(input, 'itemId')}"`);
  }
  return itemId;
}

function limitOf(input: CommandInput): number {
  const text = stringOption(input, 'limit') ?? '50';
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw usageFailure(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return limit;
}

function statesOf(input: CommandInput): readonly WatchedJobState[] {
  const text = stringOption(input, 'state');
  if (text === undefined) return WATCHED_JOB_STATES;
  const states = text.split(',').map((state) => state.trim());
  const unknown = states.filter((state) => !WATCHED_JOB_STATES.includes(state as WatchedJobState));
  if (unknown.length > 0) {
    throw usageFailure(
      `--state takes ${WATCHED_JOB_STATES.join(', ')} (comma-separated), not ${unknown.join(', ')}`,
    );
  }
  return states as WatchedJobState[];
}

function date(ms: number | undefined): Date | null {
  return ms === undefined || ms === 0 ? null : new Date(ms);
}

/** A completion job as the console shows it; the item and upload come from the job's data. */
function jobJson(job: Job, state: string) {
  const data = job.data as { itemId?: unknown; uploadId?: unknown };
  return {
    jobId: job.id ?? null,
    state,
    itemId: typeof data.itemId === 'string' ? data.itemId : null,
    uploadId: typeof data.uploadId === 'string' ? data.uploadId : null,
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    failedReason: job.failedReason || null,
    enqueuedAt: date(job.timestamp)?.toISOString() ?? null,
    startedAt: date(job.processedOn)?.toISOString() ?? null,
    finishedAt: date(job.finishedOn)?.toISOString() ?? null,
  };
}

async function completionJobs(context: AdminContext, states: readonly WatchedJobState[], limit: number) {
  const { resources } = context;
  const jobs: ReturnType<typeof jobJson>[] = [];
  for (const state of states) {
    const found = await resources.redis(() =>
      resources.uploadQueue.queue.getJobs([state], 0, limit - 1, true),
    );
    // The same queue carries the repeatable sweep: only completions are listed.
    for (const job of found) if (job.name === COMPLETE_UPLOAD_JOB) jobs.push(jobJson(job, state));
  }
  return jobs.slice(0, limit);
}

/** Completions the read model shows requested whose job will not run: what `requeue` is for. */
async function completionsWithoutJob(context: AdminContext, limit: number) {
  const { resources } = context;
  const queries = new SweepQueries(resources.pool, resources.projectorConfig.PROJECTOR_READ_SCHEMA);
  const candidates = await queries.stuckCompletions(context.now(), 0, limit);
  const lost: { itemId: string; uploadId: string; jobState: string }[] = [];
  for (const candidate of candidates) {
    const jobState = await resources.redis(() => resources.uploadQueue.completionState(candidate.uploadId));
    if (!isPending(jobState)) lost.push({ ...candidate, jobState });
  }
  return lost;
}

export const uploadsListCommand = defineCommand({
  path: ['uploads', 'list'],
  positionals: [],
  options: {
    state: {
      type: 'string',
      value: WATCHED_JOB_STATES.join(','),
      description: 'only completion jobs in these states',
    },
    limit: {
      type: 'string',
      value: 'n',
      description: `at most this many per list (default 50, at most ${MAX_LIMIT})`,
    },
  },
  summary: 'upload completion jobs by state, and completions that have no job',
  details: [
    "Lists the upload queue's completion jobs (waiting, prioritized, active, delayed for a retry,",
    'failed) with their item, attempts and last failure, read from Redis. Then the completions the',
    'read model shows requested (status processing) whose job will not run (lost with a Redis restart',
    "or failed for good): the worker's sweep enqueues those again after UPLOAD_STUCK_AFTER_MS;",
    '`uploads requeue <itemId>` does it now. Changes nothing.',
  ].join('\n'),
  async run(context, input) {
    const limit = limitOf(input);
    const jobs = await completionJobs(context, statesOf(input), limit);
    const withoutJob = await completionsWithoutJob(context, limit);
    const json = { jobs, withoutJob };
    const jobText =
      jobs.length === 0
        ? 'no completion jobs'
        : table(
            ['item', 'state', 'attempts', 'enqueued at', 'last failure'],
            jobs.map((job) => [
              job.itemId ?? '?',
              job.state,
              `${job.attemptsMade}/${job.attempts}`,
              job.enqueuedAt ?? '-',
              clip(job.failedReason ?? '', 60),
            ]),
          );
    const lostText =
      withoutJob.length === 0
        ? 'every requested completion has a job'
        : [
            'requested completions without a job (npm run admin -- uploads requeue <item>):',
            table(
              ['item', 'upload', 'job'],
              withoutJob.map((lost) => [lost.itemId, clip(lost.uploadId, 40), lost.jobState]),
            ),
          ].join('\n');
    return { json, text: `${jobText}\n\n${lostText}` };
  },
});

export const uploadsShowCommand = defineCommand({
  path: ['uploads', 'show'],
  positionals: ['itemId'],
  options: {},
  summary: "an item's upload: the event store's truth, the read model's row and its completion job",
  details: [
    "Shows the item's upload status as the event store has it (what the worker decides on), the",
    "read model's uploads row (what the API answers with; it may lag), and the completion job in",
    'the queue with its attempts and last failure. Changes nothing.',
  ].join('\n'),
  async run(context, input) {
    const itemId = itemIdOf(input);
    const { resources } = context;
    const { state } = await loadItem(await resources.store(), itemId);
    if (state.status === 'absent') throw notFound(`no item ${itemId}`);
    if (state.status === 'deleted' || state.kind !== 'item') {
      const json = { itemId, status: 'deleted', upload: null, readModel: null, job: null };
      return { json, text: `item ${itemId} is deleted` };
    }
    const { upload } = state;
    if (upload === null) {
      const json = { itemId, status: state.uploadStatus, upload: null, readModel: null, job: null };
      return { json, text: `item ${itemId} has no upload: its assets are registered by href` };
    }
    const row = await resources.pool.query<{
      status: string;
      status_message: string | null;
      expires_at: Date;
      completion_requested_at: Date | null;
      ended_at: Date | null;
      updated_at: Date;
    }>(
      `SELECT status, status_message, expires_at, completion_requested_at, ended_at, updated_at
         FROM "${resources.projectorConfig.PROJECTOR_READ_SCHEMA}".uploads WHERE item_id = $1`,
      [itemId],
    );
    const readRow = row.rows[0];
    const job = await resources.redis(() => resources.uploadQueue.completionJob(upload.uploadId));
    const jobState = job ? await resources.redis(() => job.getState()) : null;
    const json = {
      itemId,
      status: state.uploadStatus,
      statusMessage: state.statusMessage,
      upload: {
        uploadId: upload.uploadId,
        bucket: upload.bucket,
        key: upload.key,
        partSize: upload.partSize,
      },
      readModel: readRow && {
        status: readRow.status,
        statusMessage: readRow.status_message,
        expiresAt: readRow.expires_at.toISOString(),
        completionRequestedAt: readRow.completion_requested_at?.toISOString() ?? null,
        endedAt: readRow.ended_at?.toISOString() ?? null,
        updatedAt: readRow.updated_at.toISOString(),
      },
      job: job && jobState !== null ? jobJson(job, jobState) : null,
    };
    const text = [
      `item ${itemId}`,
      `  status          ${state.uploadStatus}${state.statusMessage === null ? '' : ` (${state.statusMessage})`}`,
      `  upload          ${upload.uploadId}`,
      `  object          s3://${upload.bucket}/${upload.key}`,
      `  read model      ${readRow ? `${readRow.status}, updated ${when(readRow.updated_at)}` : 'no row (not projected yet?)'}`,
      `  expires         ${when(readRow?.expires_at)}`,
      `  completion      ${readRow?.completion_requested_at ? `requested ${when(readRow.completion_requested_at)}` : 'not requested'}`,
      `  job             ${json.job ? `${json.job.state}, ${json.job.attemptsMade}/${json.job.attempts} attempts${json.job.failedReason ? `, last failure: ${clip(json.job.failedReason, 60)}` : ''}` : 'none'}`,
    ].join('\n');
    return { json, text };
  },
});

export const uploadsRequeueCommand = defineCommand({
  path: ['uploads', 'requeue'],
  positionals: ['itemId'],
  options: {},
  summary: 'enqueue the completion of an item that waits for one and has no job that will run',
  details: [
    'For an item whose completion was requested (processing, as the event store has it) and whose',
    "job was lost or failed for good: enqueues it again now, as the worker's sweep would later. The",
    'job decides on the event store again, so nothing is recorded twice. Refused (exit 4) for an item',
    'that waits for no completion (uploading, ready, failed: the client completes again); when a job',
    'for it is already waiting, delayed or active there is nothing to do (exit 0).',
  ].join('\n'),
  async run(context, input) {
    const itemId = itemIdOf(input);
    const { resources } = context;
    const eventStore = await resources.store();
    await resources.requireRedis();
    const outcome = await requeueCompletion({ eventStore, queue: resources.uploadQueue }, itemId);
    switch (outcome.kind) {
      case 'not-found':
        throw notFound(`no item ${itemId}`);
      case 'not-awaiting':
        throw refused(
          `item ${itemId} waits for no completion (its upload is ${outcome.status}): nothing to enqueue`,
        );
      case 'pending':
        return {
          json: { itemId, uploadId: outcome.uploadId, enqueued: false, jobState: outcome.state },
          text: `item ${itemId}: its completion job is already ${outcome.state}; nothing to do`,
        };
      case 'enqueued':
        return {
          json: { itemId, uploadId: outcome.uploadId, enqueued: true, jobState: 'waiting' },
          text: `item ${itemId}: completion enqueued; the upload worker takes it from here`,
        };
    }
  },
});
