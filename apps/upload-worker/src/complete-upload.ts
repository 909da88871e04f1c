import type { FollowUp, LiveUploadItem } from '@portal/domain';
import { isConnectionError, type Logger } from '@portal/platform';
import { ObjectStoreUnavailableError, type CompleteUploadJobData, type ObjectStore } from '@portal/uploads';
import { decideOnItem, decideUnlessEnded, type DecisionDependencies } from './item-decision.js';
import { latestEvent, loadItem, uploadPlanOf, type LoadedItem } from './item-stream.js';
import { completeInObjectStore, type StepHook } from './object-completion.js';

export interface CompleteUploadDependencies extends DecisionDependencies {
  readonly objectStore: ObjectStore;
  readonly logger: Logger;
  /** Called as each step finishes; tests throw from it to play a worker dying at that point. */
  readonly afterStep?: StepHook;
}

/** What the processor needs of a BullMQ job; tests pass a plain object of this shape. */
export interface CompletionJob {
  readonly id?: string | undefined;
  readonly data: CompleteUploadJobData;
  /** Attempts that failed before this one. */
  readonly attemptsMade: number;
  readonly opts: { readonly attempts?: number | undefined };
}

export type CompletionOutcome =
  | { readonly outcome: 'ready'; readonly assetId: string; readonly recorded: boolean }
  | { readonly outcome: 'failed'; readonly statusMessage: string; readonly recorded: boolean }
  | { readonly outcome: 'aborted' }
  | { readonly outcome: 'skipped'; readonly reason: string };

/**
 * The `complete-upload` job. Problems the client can fix (a missing part, a wrong ETag) end in
 * `UploadFailed` at once and the job succeeds; an unreachable object store or database throws, so BullMQ
 * retries with backoff, and the last attempt records `UploadFailed` instead of throwing. Safe to run any
 * number of times, concurrently too: it appends only at the revision it read, and re-decides on a conflict.
 */
export async function completeUpload(
  deps: CompleteUploadDependencies,
  job: CompletionJob,
): Promise<CompletionOutcome> {
  const { itemId, uploadId, requestId } = job.data;
  const log = deps.logger.child({ jobId: job.id, itemId, uploadId, requestId });
  const attempts = job.opts.attempts ?? 1;
  try {
    return await runCompletion({ ...deps, logger: log }, job);
  } catch (error) {
    if (job.attemptsMade + 1 < attempts) {
      log.warn(
        { err: error, attempt: job.attemptsMade + 1, attempts },
        'completion attempt failed; will retry',
      );
      throw error;
    }
    const statusMessage = giveUpMessage(error, attempts);
    log.error({ err: error, attempts }, 'completion failed on its last attempt');
    // If this append fails too, the job fails, the item stays `processing`, and the sweep enqueues it again.
    const loaded = await loadItem(deps.eventStore, itemId);
    const appended = await decideOnItem(
      deps,
      loaded,
      { type: 'FailUpload', data: { id: itemId, uploadId, statusMessage } },
      completionCause(loaded, job),
    );
    return { outcome: 'failed', statusMessage, recorded: appended.events.length > 0 };
  }
}

async function runCompletion(
  deps: CompleteUploadDependencies,
  job: CompletionJob,
): Promise<CompletionOutcome> {
  const { itemId, uploadId } = job.data;
  const log = deps.logger;
  const loaded = await loadItem(deps.eventStore, itemId);
  const { state } = loaded;
  if (state.status === 'deleted' && state.openUploadId === uploadId) {
    return abortDeletedItemUpload(deps, loaded, uploadId);
  }
  if (!isCompleting(state, uploadId)) {
    const reason = describeState(loaded);
    log.info({ reason }, 'nothing to complete');
    return { outcome: 'skipped', reason };
  }

  const afterStep = deps.afterStep ?? (() => undefined);
  const verdict = await completeInObjectStore(deps.objectStore, state, afterStep);
  const cause = completionCause(loaded, job);
  if (!verdict.ok) {
    const appended = await decideOnItem(
      deps,
      loaded,
      { type: 'FailUpload', data: { id: itemId, uploadId, statusMessage: verdict.statusMessage } },
      cause,
    );
    log.info({ statusMessage: verdict.statusMessage, recorded: appended.events.length > 0 }, 'upload failed');
    return { outcome: 'failed', statusMessage: verdict.statusMessage, recorded: appended.events.length > 0 };
  }
  const appended = await decideOnItem(
    deps,
    loaded,
    { type: 'AttachUploadedAsset', data: { id: itemId, uploadId, asset: verdict.asset } },
    cause,
  );
  await afterStep('events-appended');
  const recorded = appended.events.length > 0;
  if (!recorded) {
    // The item was deleted while S3 assembled its file: no asset will ever name the object, so remove it.
    const current = await loadItem(deps.eventStore, itemId);
    if (current.state.status === 'deleted') {
      await deps.objectStore.deleteObject(verdict.asset.key);
      log.info({ key: verdict.asset.key }, 'item deleted during its completion: assembled object removed');
      return abortDeletedItemUpload(deps, current, uploadId);
    }
  }
  log.info({ assetId: verdict.asset.id, size: verdict.asset.size, recorded }, 'upload completed');
  return { outcome: 'ready', assetId: verdict.asset.id, recorded };
}

/** The item was deleted while its completion waited: the open upload is aborted instead. */
async function abortDeletedItemUpload(
  deps: CompleteUploadDependencies,
  loaded: LoadedItem,
  uploadId: string,
): Promise<CompletionOutcome> {
  const plan = uploadPlanOf(loaded);
  if (plan) await deps.objectStore.abortMultipartUpload(plan.key, uploadId);
  await decideUnlessEnded(
    deps,
    loaded,
    { type: 'AbortUpload', data: { id: loaded.itemId, ancestorDeleted: false } },
    {
      event: latestEvent(loaded, 'PortalObjectDeleted'),
      requestId: null,
      fallbackCorrelationId: uploadId,
    },
  );
  deps.logger.info('item deleted before its completion: upload aborted');
  return { outcome: 'aborted' };
}

function isCompleting(state: LoadedItem['state'], uploadId: string): state is LiveUploadItem {
  return (
    state.status === 'live' &&
    state.kind === 'item' &&
    state.upload?.uploadId === uploadId &&
    state.uploadStatus === 'processing'
  );
}

function describeState({ state, itemId }: LoadedItem): string {
  if (state.status === 'absent') return `item ${itemId} does not exist`;
  if (state.status === 'deleted') return `${state.kind} ${itemId} was deleted`;
  if (state.kind !== 'item') return `${state.kind} ${itemId} is not an item`;
  return `item ${itemId} is ${state.uploadStatus} (upload ${state.upload?.uploadId ?? 'none: assets by href'})`;
}

/** The completion request this job serves: its id is the causation, its correlation id is inherited. */
function completionCause(loaded: LoadedItem, job: CompletionJob): FollowUp {
  return {
    event: latestEvent(loaded, 'UploadCompletionRequested', job.data.uploadId),
    requestId: job.data.requestId,
    fallbackCorrelationId: job.id ?? job.data.uploadId,
  };
}

function giveUpMessage(error: unknown, attempts: number): string {
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  if (error instanceof ObjectStoreUnavailableError) {
    return `object storage was unreachable after ${tries}; complete again to retry`;
  }
  if (isConnectionError(error)) return `the database was unreachable after ${tries}; complete again to retry`;
  return `the upload could not be completed after ${tries} because of an internal error; complete again to retry`;
}
