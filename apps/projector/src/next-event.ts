import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@portal/domain';

/**
 * The first event after `position` a subscriber can see, or `null` when there is none yet. Reads one
 * event and stops: never waits for a live one.
 */
export async function nextEventAfter(store: EventStore, position: Position): Promise<RecordedEvent | null> {
  if (comparePositions(await store.headPosition(), position) <= 0) return null;
  const subscription = new AbortController();
  try {
    for await (const batch of store.subscribeAll({
      after: position,
      signal: subscription.signal,
      maxBatchSize: 1,
    })) {
      const first = batch[0];
      if (first) return first;
    }
    return null;
  } finally {
    subscription.abort();
  }
}
