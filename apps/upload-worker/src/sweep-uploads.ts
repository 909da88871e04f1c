import { decide, DomainError, type ItemCommand, type PortalObjectState } from '@portal/domain';
import { isUndefinedTableError, type Logger } from '@portal/platform';
import type { ObjectStore, UploadQueue } from '@portal/uploads';
import { hasDeletedAncestor } from '@portal/commands';
import { decideOnItem, decideUnlessEnded, type DecisionDependencies } from './item-decision.js';
import { latestEvent, loadItem, uploadPlanOf, type LoadedItem } from './item-stream.js';
import type { SweepQueries, UploadCandidate } from './sweep-queries.js';

export interface SweepDependencies extends DecisionDependencies {
  readonly objectStore: ObjectStore;
  readonly queue: Pick<UploadQueue, 'hasPendingCompletion' | 'enqueueCompletion'>;
  readonly queries: SweepQueries;
  readonly logger: Logger;
  /** A completion `processing` this long without a job is enqueued again. */
  readonly stuckAfterMs: number;
  /** Candidates of each kind per sweep; the rest wait for the next one. */
  readonly batchSize: number;
}

export interface SweepReport {
  readonly expired: number;
  readonly aborted: number;
  readonly requeued: number;
  /** Candidates the event store did not confirm (the read model lags behind it); none of them was touched. */
  readonly skipped: number;
  /** Candidates that hit an error (logged); the next sweep tries them again. */
  readonly errors: number;
}

type Handled = 'done' | 'skipped';

/**
 * The repeatable `sweep-uploads` job: (a) aborts uploads open past their time to live (`UploadExpired`) and
 * uploads left open under a tombstone (`UploadAborted`); (b) enqueues again completions whose job was lost —
 * Redis here keeps nothing on disk, so a restart loses waiting jobs, and the event store is the truth.
 * An expiry is recorded before S3 aborts the upload, so a completion racing the sweep loses (or wins) on
 * the expected revision and S3 never drops an upload the item still accepts a completion for. Under a
 * tombstone nobody can complete any more: S3 is cleaned first, and a failed append repeats an idempotent
 * abort at the next sweep.
 */
export async function sweepUploads(deps: SweepDependencies, sweepId: string): Promise<SweepReport> {
  const log = deps.logger.child({ jobId: sweepId });
  const counts = { expired: 0, aborted: 0, requeued: 0, skipped: 0, errors: 0 };
  const run = async (
    kind: 'expired' | 'aborted' | 'requeued',
    find: () => Promise<UploadCandidate[]>,
    handle: (candidate: UploadCandidate) => Promise<Handled>,
  ): Promise<void> => {
    for (const candidate of await findOrNone(find, log)) {
      try {
        if ((await handle(candidate)) === 'done') counts[kind] += 1;
        else counts.skipped += 1;
      } catch (error) {
        counts.errors += 1;
        log.warn(
          { err: error, itemId: candidate.itemId, uploadId: candidate.uploadId, kind },
          'sweep step failed',
        );
      }
    }
  };
  await run(
    'expired',
    () => deps.queries.expired(deps.now(), deps.batchSize),
    (c) => expire(deps, c, sweepId),
  );
  await run(
    'aborted',
    () => deps.queries.underTombstones(deps.batchSize),
    (c) => abortUnderTombstone(deps, c, sweepId),
  );
  await run(
    'requeued',
    () => deps.queries.stuckCompletions(deps.now(), deps.stuckAfterMs, deps.batchSize),
    (c) => requeue(deps, c, log),
  );
  if (counts.expired + counts.aborted + counts.requeued + counts.errors > 0) log.info(counts, 'sweep done');
  return counts;
}

async function findOrNone(find: () => Promise<UploadCandidate[]>, log: Logger): Promise<UploadCandidate[]> {
  try {
    return await find();
  } catch (error) {
    if (!isUndefinedTableError(error)) throw error;
    log.warn('the read model has no uploads table yet; nothing to sweep');
    return [];
  }
}

async function expire(
  deps: SweepDependencies,
  { itemId, uploadId }: UploadCandidate,
  sweepId: string,
): Promise<Handled> {
  const loaded = await loadItem(deps.eventStore, itemId);
  const command: ItemCommand = {
    type: 'ExpireUpload',
    data: { id: itemId, uploadId, now: deps.now().toISOString() },
  };
  // The decider checks the truth: still open, and past its expiry.
  if (!wouldRecord(command, loaded.state)) return 'skipped';
  // Recorded first: a completion racing the sweep then loses on the expected revision (or the sweep does),
  // and the upload is never gone from S3 while the item still takes a completion.
  const appended = await decideOnItem(deps, loaded, command, {
    event: latestEvent(loaded, 'ItemUploadStarted'),
    requestId: null,
    fallbackCorrelationId: sweepId,
  });
  if (appended.events.length > 0) await abortInObjectStore(deps, loaded, uploadId);
  deps.logger.info({ itemId, uploadId, jobId: sweepId }, 'upload expired');
  return appended.events.length > 0 ? 'done' : 'skipped';
}

async function abortUnderTombstone(
  deps: SweepDependencies,
  { itemId, uploadId }: UploadCandidate,
  sweepId: string,
): Promise<Handled> {
  const loaded = await loadItem(deps.eventStore, itemId);
  const { state } = loaded;
  if (state.status === 'deleted') {
    if (state.openUploadId !== uploadId) return 'skipped';
  } else if (state.status === 'live' && state.kind === 'item' && state.upload?.uploadId === uploadId) {
    // Buried by a recursive delete above: the item's own stream is live, but nobody can reach it any more.
    // Clients get 404 for such items; the sweep's abort is the system's cleanup, which the decider allows.
    if (!(await hasDeletedAncestor(deps.eventStore, state.parentId))) return 'skipped';
  } else {
    return 'skipped';
  }
  const command: ItemCommand = {
    type: 'AbortUpload',
    data: { id: itemId, ancestorDeleted: state.status === 'live', cleanup: true },
  };
  // A buried item whose completion is under way is refused here; its job finishes it.
  if (!wouldRecord(command, state)) return 'skipped';
  await abortInObjectStore(deps, loaded, uploadId);
  const appended = await decideUnlessEnded(deps, loaded, command, {
    event: latestEvent(loaded, 'PortalObjectDeleted'),
    requestId: null,
    fallbackCorrelationId: sweepId,
  });
  deps.logger.info({ itemId, uploadId, jobId: sweepId }, 'upload under a tombstone aborted');
  return appended.events.length > 0 ? 'done' : 'skipped';
}

async function requeue(
  deps: SweepDependencies,
  { itemId, uploadId }: UploadCandidate,
  log: Logger,
): Promise<Handled> {
  if (await deps.queue.hasPendingCompletion(uploadId)) return 'skipped';
  // The job re-reads the truth, so a completion the read model shows late is a harmless no-op.
  await deps.queue.enqueueCompletion({ itemId, uploadId, requestId: null });
  log.warn({ itemId, uploadId }, 'completion had no job; enqueued again');
  return 'done';
}

async function abortInObjectStore(
  deps: SweepDependencies,
  loaded: LoadedItem,
  uploadId: string,
): Promise<void> {
  const plan = uploadPlanOf(loaded);
  if (plan) await deps.objectStore.abortMultipartUpload(plan.key, uploadId);
}

/** Whether the decider would record anything: a refusal or a no-op means the read model lags behind the truth. */
function wouldRecord(command: ItemCommand, state: PortalObjectState): boolean {
  try {
    return decide(command, state).length > 0;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}
