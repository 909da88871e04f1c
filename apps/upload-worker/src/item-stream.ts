import { loadStream, type LoadedStream } from '@portal/commands';
import {
  portalObjectDecider,
  streamIdOf,
  type ItemUploadStarted,
  type EventStore,
  type PortalObjectState,
  type RecordedEvent,
  type UploadPlan,
} from '@portal/domain';

/** An item's stream as the worker decides on it: the truth, never the read models. */
export interface LoadedItem extends LoadedStream<PortalObjectState> {
  readonly itemId: string;
}

export async function loadItem(store: EventStore, itemId: string): Promise<LoadedItem> {
  return { itemId, ...(await loadStream(store, streamIdOf('item', itemId), portalObjectDecider)) };
}

/** The upload plan the item started with; a tombstone no longer carries it, but the stream does. */
export function uploadPlanOf(item: LoadedItem): UploadPlan | null {
  const started = item.events.find((event) => event.type === 'ItemUploadStarted');
  return started ? (started.data as ItemUploadStarted['data']).upload : null;
}

/** The newest event of a type (for an upload when given): what the worker's own events are caused by. */
export function latestEvent(item: LoadedItem, type: string, uploadId?: string): RecordedEvent | undefined {
  return item.events.findLast((event) => {
    if (event.type !== type) return false;
    if (uploadId === undefined) return true;
    const data = event.data as { uploadId?: unknown };
    return data.uploadId === uploadId;
  });
}
