import { uploadOf, type EventStore, type PortalObjectState } from '@portal/domain';
import { isPending, type UploadQueue } from '@portal/uploads';
import { loadItem } from './item-stream.js';

/**
 * Whether the item waits for a completion of `uploadId` (or of its current upload): a client asked to
 * complete it and nothing has recorded the outcome yet. Decided on the event store, never the read model.
 */
export function awaitsCompletion(state: PortalObjectState, uploadId?: string): boolean {
  return (
    state.status === 'live' &&
    state.kind === 'item' &&
    state.upload !== null &&
    (uploadId === undefined || state.upload.uploadId === uploadId) &&
    state.uploadStatus === 'processing'
  );
}

export type RequeueOutcome =
  | { readonly kind: 'enqueued'; readonly uploadId: string }
  /** A job for it will still run (`state`): enqueuing again would land on that same job. */
  | { readonly kind: 'pending'; readonly uploadId: string; readonly state: string }
  /** Nothing to complete: `status` is the item's upload status (or `deleted`, `not an item`). */
  | { readonly kind: 'not-awaiting'; readonly status: string }
  | { readonly kind: 'not-found' };

/**
 * Enqueues the completion of an item that waits for one and has no job that will run: what the sweep
 * does for a completion whose job was lost, at once, for one item (the admin console's `uploads
 * requeue`). The job itself decides on the event store again, so a late or double enqueue is harmless.
 */
export async function requeueCompletion(
  deps: {
    readonly eventStore: EventStore;
    readonly queue: Pick<UploadQueue, 'completionState' | 'enqueueCompletion'>;
  },
  itemId: string,
): Promise<RequeueOutcome> {
  const { state } = await loadItem(deps.eventStore, itemId);
  if (state.status === 'absent') return { kind: 'not-found' };
  if (!awaitsCompletion(state)) return { kind: 'not-awaiting', status: statusOf(state) };
  if (state.status !== 'live' || state.kind !== 'item') return { kind: 'not-found' };
  const { uploadId } = uploadOf(state);
  const jobState = await deps.queue.completionState(uploadId);
  if (isPending(jobState)) return { kind: 'pending', uploadId, state: jobState };
  await deps.queue.enqueueCompletion({ itemId, uploadId, requestId: null });
  return { kind: 'enqueued', uploadId };
}

function statusOf(state: PortalObjectState): string {
  if (state.status !== 'live') return state.status;
  return state.kind === 'item' ? state.uploadStatus : `a ${state.kind}, not an item`;
}
