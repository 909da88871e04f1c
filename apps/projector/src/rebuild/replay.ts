import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@portal/domain';
import { readAhead } from '../read-ahead.js';

export interface ReplayProgress {
  readonly position: Position;
  readonly events: number;
}

/**
 * Feeds `apply` every event after `after` until it has passed `until` (a `headPosition()` taken
 * earlier), then stops the subscription instead of waiting for live events.
 */
export async function replayUntil(
  store: EventStore,
  range: {
    readonly after: Position;
    readonly until: Position;
    readonly batchSize: number;
    /** Ask the store for each event's stored JSON text too (`RecordedEvent.storedJson`). */
    readonly keepStoredJson?: boolean;
  },
  apply: (batch: readonly RecordedEvent[], expected: Position) => Promise<Position>,
): Promise<ReplayProgress> {
  let position = range.after;
  let events = 0;
  if (comparePositions(position, range.until) >= 0) return { position, events };
  const subscription = new AbortController();
  try {
    const pages = store.subscribeAll({
      after: position,
      signal: subscription.signal,
      maxBatchSize: range.batchSize,
      ...(range.keepStoredJson === true ? { keepStoredJson: true } : {}),
    });
    for await (const batch of readAhead(pages)) {
      if (batch.length === 0) continue;
      position = await apply(batch, position);
      events += batch.length;
      if (comparePositions(position, range.until) >= 0) return { position, events };
    }
  } finally {
    subscription.abort();
  }
  throw new Error('the event subscription ended before reaching the head position');
}
