import type { EventStore } from '@portal/domain';
import type { Logger } from '@portal/platform';
import type { CompleteUploadJobData, UploadQueue } from '@portal/uploads';
import { loadItem } from './item-stream.js';
import { awaitsCompletion } from './requeue-completion.js';

export interface RequeueDependencies {
  readonly eventStore: EventStore;
  readonly queue: Pick<UploadQueue, 'enqueueCompletion'>;
  readonly logger: Logger;
}

/**
 * Run once a completion job that recorded `UploadFailed` is done. A client that completes again at once
 * (it fixed the missing part) may do so while that job is still finishing: the API's enqueue then lands on
 * the finishing job's id and is dropped. Looking again here enqueues the new request at once, instead of
 * leaving it to the sweep minutes later. Answers whether it enqueued.
 */
export async function requeueIfRequestedAgain(
  deps: RequeueDependencies,
  data: CompleteUploadJobData,
): Promise<boolean> {
  const { state } = await loadItem(deps.eventStore, data.itemId);
  if (!awaitsCompletion(state, data.uploadId)) return false;
  await deps.queue.enqueueCompletion({ itemId: data.itemId, uploadId: data.uploadId, requestId: null });
  deps.logger.info({ itemId: data.itemId, uploadId: data.uploadId }, 'completion requested again; enqueued');
  return true;
}
