import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START as ESDB_START,
  StreamNotFoundError,
  excludeSystemEvents,
} from '@eventstore/db-client';
import type { AllStreamResolvedEvent, AllStreamSubscription } from '@eventstore/db-client';
import { START } from '@portal/domain';
import type {
  AppendOutcome,
  AppendResult,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  Position,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeAllOptions,
} from '@portal/domain';
import { appendEachConcurrently } from '../append-many.js';
import { validateAppend, validateMaxBatchSize } from '../append-rules.js';
import { isAborted, subscriptionSignal } from '../abort.js';
import { ChangeSignal } from '../change-signal.js';
import {
  fromEsdbPosition,
  fromEsdbRecordedEvent,
  toConcurrencyError,
  toEsdbEventData,
  toEsdbExpectedRevision,
  toEsdbFromPosition,
} from './mapping.js';

/** Events buffered per subscription before the gRPC stream is paused (back-pressure). */
const bufferHighWaterMark = 2_000;
/** Events read per page when looking backwards for the newest non-system event. */
const headSearchPageSize = 100;

/** The `EventStore` port on EventStoreDB (the production target) through `@eventstore/db-client`. */
export class EventStoreDbEventStore implements EventStore {
  private readonly closing = new AbortController();

  constructor(private readonly client: EventStoreDBClient) {}

  static fromConnectionString(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { readonly expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const expected = options.expectedRevision;
    validateAppend(streamId, events, expected);
    try {
      const result = await this.client.appendToStream(streamId, events.map(toEsdbEventData), {
        expectedRevision: toEsdbExpectedRevision(expected),
      });
      return {
        nextRevision: result.nextExpectedRevision,
        position: fromEsdbPosition(result.position, `the append to ${streamId}`),
      };
    } catch (error) {
      throw toConcurrencyError(error, streamId, expected);
    }
  }

  /** EventStoreDB writes one stream per append: every entry is its own append, all at once. */
  async appendMany(appends: readonly StreamAppend[]): Promise<readonly AppendOutcome[]> {
    return await appendEachConcurrently(appends, ({ streamId, events, expectedRevision }) =>
      this.append(streamId, events, { expectedRevision }),
    );
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<readonly RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: options.fromRevision ?? ESDB_START,
      })) {
        if (resolved.event) events.push(fromEsdbRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async streamRevision(streamId: string): Promise<bigint | null> {
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        if (resolved.event) return resolved.event.revision;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
    return null;
  }

  async *subscribeAll(options: SubscribeAllOptions): AsyncGenerator<readonly RecordedEvent[]> {
    const maxBatchSize = validateMaxBatchSize(options.maxBatchSize);
    const signal = subscriptionSignal(options.signal, this.closing.signal);
    if (isAborted(signal)) return;
    const subscription = this.client.subscribeToAll({
      fromPosition: toEsdbFromPosition(options.after),
      filter: excludeSystemEvents(),
    });
    const buffer = new SubscriptionBuffer(subscription);
    try {
      while (!isAborted(signal)) {
        const seen = buffer.changes.current;
        const batch = buffer.take(maxBatchSize);
        if (batch.length > 0) {
          yield batch;
          continue;
        }
        buffer.throwIfFailed();
        await buffer.changes.waitForChange(seen, null, signal);
      }
    } finally {
      buffer.detach();
      await subscription.unsubscribe().catch(() => undefined);
    }
  }

  /** EventStoreDB's own system events are skipped: subscribers never see them, so they are no head. */
  async headPosition(): Promise<Position> {
    let from: Parameters<EventStoreDBClient['readAll']>[0] = { direction: BACKWARDS, fromPosition: END };
    for (;;) {
      let oldest: AllStreamResolvedEvent['event'];
      let count = 0;
      for await (const resolved of this.client.readAll({ ...from, maxCount: headSearchPageSize })) {
        count += 1;
        const event = resolved.event;
        if (!event) continue;
        if (!event.type.startsWith('$')) return fromEsdbPosition(event.position, 'the head event');
        oldest = event;
      }
      if (count < headSearchPageSize || !oldest) return START;
      from = { direction: BACKWARDS, fromPosition: oldest.position };
    }
  }

  /** `$all` is in commit order: its newest event is after every acknowledged append. */
  syncPosition(): Promise<Position> {
    return this.headPosition();
  }

  /** A subscriber sees every committed event at once here: the head is the last event written. */
  lastWrittenPosition(): Promise<Position> {
    return this.headPosition();
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.client.dispose();
  }
}

/** Collects what the gRPC stream delivers so a subscriber can take it in batches. */
class SubscriptionBuffer {
  readonly changes = new ChangeSignal();
  private readonly events: RecordedEvent[] = [];
  private failure: Error | null = null;
  private readonly onData = (resolved: AllStreamResolvedEvent): void => {
    if (resolved.event) this.events.push(fromEsdbRecordedEvent(resolved.event));
    if (this.events.length >= bufferHighWaterMark) this.subscription.pause();
    this.changes.notify();
  };
  private readonly onError = (error: Error): void => {
    this.failure = error;
    this.changes.notify();
  };
  private readonly onEnd = (): void => {
    this.failure ??= new Error('EventStoreDB ended the $all subscription');
    this.changes.notify();
  };

  constructor(private readonly subscription: AllStreamSubscription) {
    subscription.on('data', this.onData);
    subscription.on('error', this.onError);
    subscription.on('end', this.onEnd);
  }

  take(maxBatchSize: number): RecordedEvent[] {
    const batch = this.events.splice(0, maxBatchSize);
    if (this.subscription.isPaused() && this.events.length < bufferHighWaterMark / 2)
      this.subscription.resume();
    return batch;
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** Keeps an error listener so a cancellation error after we stop listening is never unhandled. */
  detach(): void {
    this.subscription.off('data', this.onData);
    this.subscription.off('end', this.onEnd);
    this.subscription.off('error', this.onError);
    this.subscription.on('error', () => undefined);
  }
}
