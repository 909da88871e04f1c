import { comparePositions, START, upcastRecordedEvent } from '@portal/domain';
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
import { validateAppendMany } from '../append-many.js';
import {
  explainRefusedAppend,
  expectationHolds,
  validateAppend,
  validateMaxBatchSize,
} from '../append-rules.js';
import { isAborted, subscriptionSignal } from '../abort.js';
import { ChangeSignal } from '../change-signal.js';

/**
 * The event store for unit tests: same semantics as the PostgreSQL adapter, kept in one process.
 * Data goes through JSON on the way in and out, as it would through a real store.
 */
export class InMemoryEventStore implements EventStore {
  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly byId = new Map<string, RecordedEvent>();
  private readonly changes = new ChangeSignal();
  private readonly closing = new AbortController();

  append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { readonly expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    // The work is synchronous, so concurrent appends are serialized like transactions on one stream;
    // a throw inside the executor becomes the rejection.
    return new Promise((resolve) => {
      resolve(this.appendNow(streamId, events, options.expectedRevision));
    });
  }

  /** One entry after another, at once: like one transaction, and positions follow the request. */
  appendMany(appends: readonly StreamAppend[]): Promise<readonly AppendOutcome[]> {
    return new Promise((resolve) => {
      validateAppendMany(appends);
      resolve(
        appends.map(({ streamId, events, expectedRevision }): AppendOutcome => {
          try {
            return { ok: true, result: this.appendNow(streamId, events, expectedRevision) };
          } catch (error) {
            return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
          }
        }),
      );
    });
  }

  readStream(streamId: string, options: ReadStreamOptions = {}): Promise<readonly RecordedEvent[]> {
    const from = options.fromRevision ?? 0n;
    const events = (this.streams.get(streamId) ?? []).filter((event) => event.revision >= from);
    return Promise.resolve(events.map(copyEvent));
  }

  streamRevision(streamId: string): Promise<bigint | null> {
    return Promise.resolve(this.streams.get(streamId)?.at(-1)?.revision ?? null);
  }

  async *subscribeAll(options: SubscribeAllOptions): AsyncGenerator<readonly RecordedEvent[]> {
    const maxBatchSize = validateMaxBatchSize(options.maxBatchSize);
    const signal = subscriptionSignal(options.signal, this.closing.signal);
    let cursor = options.after;
    while (!isAborted(signal)) {
      const seen = this.changes.current;
      const start = this.firstIndexAfter(cursor);
      const batch = this.log.slice(start, start + maxBatchSize).map(copyEvent);
      const last = batch.at(-1);
      if (last) {
        cursor = last.position;
        yield batch;
        continue;
      }
      await this.changes.waitForChange(seen, null, signal);
    }
  }

  headPosition(): Promise<Position> {
    return Promise.resolve(this.log.at(-1)?.position ?? START);
  }

  /** Appends take effect at once and in order, so the head already covers every one of them. */
  syncPosition(): Promise<Position> {
    return this.headPosition();
  }

  /** Nothing is held back in memory: the head is the last event written. */
  lastWrittenPosition(): Promise<Position> {
    return this.headPosition();
  }

  close(): Promise<void> {
    this.closing.abort();
    return Promise.resolve();
  }

  private appendNow(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): AppendResult {
    validateAppend(streamId, events, expected);
    const stream = this.streams.get(streamId) ?? [];
    const currentRevision = stream.at(-1)?.revision ?? null;
    const stored = events.flatMap((event) => this.byId.get(event.id.toLowerCase()) ?? []);
    if (stored.length > 0 || !expectationHolds(expected, currentRevision)) {
      const original = explainRefusedAppend(streamId, events, expected, currentRevision, stored);
      // Nothing else can move the stream in between here, so a refusal always has an explanation.
      if (original) return original;
    }
    const firstRevision = currentRevision === null ? 0n : currentRevision + 1n;
    const recorded = events.map((event, index): RecordedEvent => {
      const global = BigInt(this.log.length + index);
      return {
        id: event.id.toLowerCase(),
        streamId,
        revision: firstRevision + BigInt(index),
        position: { commit: global, prepare: global },
        type: event.type,
        data: roundTripJson(event.data),
        metadata: roundTripJson(event.metadata),
      };
    });
    for (const event of recorded) {
      this.log.push(event);
      stream.push(event);
      this.byId.set(event.id, event);
    }
    this.streams.set(streamId, stream);
    this.changes.notify();
    const last = recorded[recorded.length - 1];
    if (!last) throw new Error('unreachable: validated appends carry events');
    return { nextRevision: last.revision, position: last.position };
  }

  /** Binary search: the log is sorted by position. */
  private firstIndexAfter(position: Position): number {
    let low = 0;
    let high = this.log.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const event = this.log[middle];
      if (event && comparePositions(event.position, position) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** What a store that keeps JSON gives back; like the others, data without a JSON form becomes null. */
function roundTripJson<T>(value: T): T {
  return (value === undefined ? null : JSON.parse(JSON.stringify(value))) as T;
}

/** What readers get: a copy, and stored events of an older schema version in today's shape. */
function copyEvent(event: RecordedEvent): RecordedEvent {
  return upcastRecordedEvent({
    ...event,
    data: roundTripJson(event.data),
    metadata: roundTripJson(event.metadata),
  });
}
