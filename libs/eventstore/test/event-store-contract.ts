import { ConcurrencyError, START, comparePositions } from '@portal/domain';
import type { AppendResult, EventStore, Position, RecordedEvent } from '@portal/domain';
import { expect, it, onTestFinished } from 'vitest';
import { DuplicateEventIdError } from '../src/index.js';
import { appendManyContract } from './append-many-contract.js';
import {
  SubscriptionRecorder,
  isStrictlyIncreasing,
  newEvent,
  newEvents,
  newMetadata,
  newStreamId,
} from './event-store-test-kit.js';

export interface EventStoreContractOptions {
  /** Opens a store for one test; it is closed when the test finishes. */
  readonly createStore: () => Promise<EventStore>;
  /**
   * `true` when every created store starts empty and nobody else writes to it, so whole-log
   * assertions (head of an empty store, everything from START) are possible.
   */
  readonly exclusive: boolean;
  /**
   * `true` when an event id is unique across all streams and idempotent even with `any` (PostgreSQL,
   * in-memory). EventStoreDB scopes ids to a stream and keeps `any` idempotence best-effort.
   */
  readonly uniqueEventIds: boolean;
  /** `true` when one `appendMany` is one transaction, so its positions follow the request. */
  readonly appendsManyInOneTransaction: boolean;
}

/** The behaviour every `EventStore` adapter must show. Call inside a `describe` of the adapter. */
/**
 * The head once it has reached `position`. On PostgreSQL the head stays behind any transaction still
 * open anywhere in the cluster (the ordering barrier), so it reaches a fresh append only eventually.
 */
async function headReaching(store: EventStore, position: Position, timeoutMs = 10_000): Promise<Position> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const head = await store.headPosition();
    if (comparePositions(head, position) >= 0 || Date.now() > deadline) return head;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function eventStoreContract(options: EventStoreContractOptions): void {
  async function openStore(): Promise<EventStore> {
    const store = await options.createStore();
    onTestFinished(() => store.close());
    return store;
  }

  appendManyContract({
    openStore,
    inOneTransaction: options.appendsManyInOneTransaction,
    uniqueEventIds: options.uniqueEventIds,
  });

  it('appends events and reads them back with data, metadata, revisions and positions', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    const metadata = newMetadata({ orgId: 'org-1', causationId: 'cause-1' });
    const first = {
      ...newEvent('ThingCreated', { title: 'Tiles', tags: ['a', 'b'], nested: { n: 1.5 } }),
      metadata,
    };
    const second = newEvent('ThingRenamed', { title: 'Tiles 2' });

    const result = await store.append(streamId, [first, second], { expectedRevision: 'no_stream' });
    const events = await store.readStream(streamId);

    expect(
      events.map(({ id, streamId: stream, revision, type, data, metadata: meta }) => ({
        id,
        stream,
        revision,
        type,
        data,
        meta,
      })),
    ).toEqual([
      {
        id: first.id,
        stream: streamId,
        revision: 0n,
        type: 'ThingCreated',
        data: first.data,
        meta: metadata,
      },
      {
        id: second.id,
        stream: streamId,
        revision: 1n,
        type: 'ThingRenamed',
        data: second.data,
        meta: second.metadata,
      },
    ]);
    expect(result.nextRevision).toBe(1n);
    expect(isStrictlyIncreasing(events.map((event) => event.position))).toBe(true);
    expect(result.position).toEqual(events[1]?.position);
  });

  it('keeps data of every JSON shape: object, array, string, number and null', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    const shapes: unknown[] = [{ a: [1, { b: null }] }, ['x', 2], 'text with "quotes" and \\ é', 42.5, null];
    await store.append(
      streamId,
      shapes.map((data) => newEvent('Shaped', data)),
      { expectedRevision: 'no_stream' },
    );
    expect((await store.readStream(streamId)).map((event) => event.data)).toEqual(shapes);
  });

  it('reads a missing stream as empty', async () => {
    const store = await openStore();
    expect(await store.readStream(newStreamId('missing'))).toEqual([]);
  });

  it('reads a stream from a revision on, and reports its last revision', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    expect(await store.streamRevision(streamId)).toBeNull();
    expect(await store.readStream(streamId, { fromRevision: 3n })).toEqual([]);
    const events = newEvents(5);
    await store.append(streamId, events, { expectedRevision: 'no_stream' });

    expect(await store.streamRevision(streamId)).toBe(4n);
    const tail = await store.readStream(streamId, { fromRevision: 3n });
    expect(tail.map((event) => [event.id, event.revision])).toEqual([
      [events[3]?.id, 3n],
      [events[4]?.id, 4n],
    ]);
    expect(await store.readStream(streamId, { fromRevision: 5n })).toEqual([]);
    expect(await store.readStream(streamId, { fromRevision: 0n })).toEqual(await store.readStream(streamId));
  });

  it('syncPosition covers every append acknowledged before it, and subscribers reach it', async () => {
    const store = await openStore();
    const appended = await Promise.all(
      Array.from({ length: 12 }, () =>
        store.append(newStreamId(), newEvents(2), { expectedRevision: 'no_stream' }),
      ),
    );
    const synced = await store.syncPosition();
    for (const { position } of appended) {
      expect(comparePositions(synced, position)).toBeGreaterThanOrEqual(0);
    }
    // Nothing covered by it may reach a subscriber after it: a subscriber from START delivers it.
    const recorder = new SubscriptionRecorder(store, { after: START });
    onTestFinished(() => recorder.stop());
    await recorder.waitFor('the sync position', (events) =>
      events.some((event) => comparePositions(event.position, synced) >= 0),
    );
  });

  it('no_stream creates a stream and refuses one that exists', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    await store.append(streamId, [newEvent()], { expectedRevision: 'no_stream' });

    await expect(
      store.append(streamId, [newEvent()], { expectedRevision: 'no_stream' }),
    ).rejects.toMatchObject({
      constructor: ConcurrencyError,
      code: 'CONCURRENCY_CONFLICT',
      streamId,
      expected: 'no_stream',
      actual: '0',
    });
    expect(await store.readStream(streamId)).toHaveLength(1);
  });

  it('exists refuses a missing stream and appends to an existing one', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    await expect(store.append(streamId, [newEvent()], { expectedRevision: 'exists' })).rejects.toMatchObject({
      constructor: ConcurrencyError,
      expected: 'exists',
      actual: 'no_stream',
    });
    expect(await store.readStream(streamId)).toEqual([]);

    await store.append(streamId, newEvents(2), { expectedRevision: 'no_stream' });
    const result = await store.append(streamId, [newEvent()], { expectedRevision: 'exists' });
    expect(result.nextRevision).toBe(2n);
  });

  it('a revision appends only when it is the stream’s last revision', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    await expect(store.append(streamId, [newEvent()], { expectedRevision: 0n })).rejects.toMatchObject({
      constructor: ConcurrencyError,
      expected: '0',
      actual: 'no_stream',
    });
    await store.append(streamId, [newEvent()], { expectedRevision: 'no_stream' });

    const second = await store.append(streamId, newEvents(2), { expectedRevision: 0n });
    expect(second.nextRevision).toBe(2n);
    for (const stale of [0n, 1n, 3n]) {
      await expect(store.append(streamId, [newEvent()], { expectedRevision: stale })).rejects.toMatchObject({
        constructor: ConcurrencyError,
        expected: stale.toString(),
        actual: '2',
      });
    }
    const third = await store.append(streamId, [newEvent()], { expectedRevision: 2n });
    expect(third.nextRevision).toBe(3n);
    expect((await store.readStream(streamId)).map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n]);
  });

  it('any appends to a missing and to an existing stream', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    expect((await store.append(streamId, [newEvent()], { expectedRevision: 'any' })).nextRevision).toBe(0n);
    expect((await store.append(streamId, newEvents(2), { expectedRevision: 'any' })).nextRevision).toBe(2n);
  });

  it('of two concurrent appends with the same expected revision exactly one wins', async () => {
    const store = await openStore();
    for (let round = 0; round < 5; round += 1) {
      const streamId = newStreamId();
      const creations = await Promise.allSettled([
        store.append(streamId, [newEvent('A')], { expectedRevision: 'no_stream' }),
        store.append(streamId, [newEvent('B')], { expectedRevision: 'no_stream' }),
      ]);
      expectExactlyOneWinner(creations);

      const updates = await Promise.allSettled([
        store.append(streamId, newEvents(2, 'C'), { expectedRevision: 0n }),
        store.append(streamId, [newEvent('D')], { expectedRevision: 0n }),
      ]);
      expectExactlyOneWinner(updates);

      const stored = await store.readStream(streamId);
      const winnerTypes = stored.map((event) => event.type);
      expect([
        ['A', 'C', 'C'],
        ['A', 'D'],
        ['B', 'C', 'C'],
        ['B', 'D'],
      ]).toContainEqual(winnerTypes);
    }
  });

  it('concurrent appends with any all succeed, with consecutive revisions', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.append(streamId, newEvents(2), { expectedRevision: 'any' })),
    );
    expect(results.map((result) => result.nextRevision).sort(compareBigints)).toEqual([
      1n,
      3n,
      5n,
      7n,
      9n,
      11n,
      13n,
      15n,
    ]);
    expect((await store.readStream(streamId)).map((event) => event.revision)).toEqual(
      Array.from({ length: 16 }, (_, index) => BigInt(index)),
    );
  });

  it('a retried append with the same event ids returns the original result and writes nothing', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    const created = newEvents(2);
    const original = await store.append(streamId, created, { expectedRevision: 'no_stream' });
    expect(await store.append(streamId, created, { expectedRevision: 'no_stream' })).toEqual(original);

    const updated = [newEvent()];
    const update = await store.append(streamId, updated, { expectedRevision: 1n });
    await store.append(streamId, [newEvent()], { expectedRevision: 2n });
    // The stream moved on since, yet the retry still finds its events where it expected them.
    expect(await store.append(streamId, updated, { expectedRevision: 1n })).toEqual(update);

    const stored = await store.readStream(streamId);
    expect(stored.map((event) => event.id)).toEqual([
      ...created.map((e) => e.id),
      updated[0]?.id,
      stored[3]?.id,
    ]);
  });

  it('a retry that does not match the original append is refused', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    const created = newEvents(2);
    await store.append(streamId, created, { expectedRevision: 'no_stream' });
    // Same first id but another second event: not the append that succeeded.
    const tampered = [created[0] ?? newEvent(), newEvent()];
    await expect(store.append(streamId, tampered, { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
      ConcurrencyError,
    );
    expect(await store.readStream(streamId)).toHaveLength(2);
  });

  if (options.uniqueEventIds) {
    it('a retried append with any returns the original result', async () => {
      const store = await openStore();
      const streamId = newStreamId();
      await store.append(streamId, [newEvent()], { expectedRevision: 'any' });
      const batch = newEvents(2);
      const original = await store.append(streamId, batch, { expectedRevision: 'any' });
      await store.append(streamId, [newEvent()], { expectedRevision: 'any' });
      expect(await store.append(streamId, batch, { expectedRevision: 'any' })).toEqual(original);
      expect(await store.readStream(streamId)).toHaveLength(4);
    });

    it('refuses an event id that is already recorded in another stream', async () => {
      const store = await openStore();
      const event = newEvent();
      const firstStream = newStreamId();
      await store.append(firstStream, [event], { expectedRevision: 'any' });
      await expect(store.append(newStreamId(), [event], { expectedRevision: 'any' })).rejects.toMatchObject({
        constructor: DuplicateEventIdError,
        eventId: event.id,
        recordedInStream: firstStream,
      });
    });
  }

  it('rejects appends without events or with ids that are not UUIDs', async () => {
    const store = await openStore();
    await expect(store.append(newStreamId(), [], { expectedRevision: 'any' })).rejects.toBeInstanceOf(
      RangeError,
    );
    await expect(
      store.append(newStreamId(), [{ ...newEvent(), id: 'not-a-uuid' }], { expectedRevision: 'any' }),
    ).rejects.toBeInstanceOf(RangeError);
  });

  it('subscribeAll delivers catch-up then live events, in order, strictly after a middle position', async () => {
    const store = await openStore();
    const streamA = newStreamId('a');
    const streamB = newStreamId('b');
    const ours = (event: RecordedEvent): boolean => event.streamId === streamA || event.streamId === streamB;
    const history = [newEvent('A0'), newEvent('B0'), newEvent('A1'), newEvent('B1'), newEvent('A2')];
    const results: AppendResult[] = [];
    for (const event of history) {
      const streamId = event.type.startsWith('A') ? streamA : streamB;
      results.push(await store.append(streamId, [event], { expectedRevision: 'any' }));
    }
    const middle = results[1]?.position ?? START;

    const recorder = new SubscriptionRecorder(store, { after: middle, maxBatchSize: 2 }, ours);
    onTestFinished(() => recorder.stop());
    await recorder.waitFor('the catch-up events', (events) => events.length >= 3);

    const live = [newEvent('B2'), newEvent('A3')];
    await store.append(streamB, [live[0] ?? newEvent()], { expectedRevision: 1n });
    await store.append(streamA, newEvents(2, 'A4'), { expectedRevision: 2n });
    await store.append(streamA, [live[1] ?? newEvent()], { expectedRevision: 4n });
    await recorder.waitFor('the live events', (events) => events.length >= 7);
    await recorder.stop();

    expect(recorder.events.map((event) => event.type)).toEqual(['A1', 'B1', 'A2', 'B2', 'A4', 'A4', 'A3']);
    expect(recorder.events.map((event) => event.revision)).toEqual([1n, 1n, 2n, 2n, 3n, 4n, 5n]);
    const delivered = recorder.allEvents.map((event) => event.position);
    expect(isStrictlyIncreasing([middle, ...delivered])).toBe(true);
    for (const batch of recorder.batches) expect(batch.length).toBeGreaterThanOrEqual(1);
    for (const batch of recorder.batches) expect(batch.length).toBeLessThanOrEqual(2);
  });

  it('subscribeAll positions match the positions of readStream and append', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    const before = await store.headPosition();
    const result = await store.append(streamId, newEvents(3), { expectedRevision: 'no_stream' });
    const recorder = new SubscriptionRecorder(
      store,
      { after: before },
      (event) => event.streamId === streamId,
    );
    onTestFinished(() => recorder.stop());
    await recorder.waitFor('the appended events', (events) => events.length >= 3);
    await recorder.stop();

    const stored = await store.readStream(streamId);
    expect(recorder.events).toEqual(stored);
    expect(recorder.events.at(-1)?.position).toEqual(result.position);
  });

  if (options.exclusive) {
    it('subscribeAll from START delivers every event exactly once', async () => {
      const store = await openStore();
      const appended: string[] = [];
      for (let index = 0; index < 6; index += 1) {
        const events = newEvents((index % 3) + 1);
        await store.append(newStreamId(), events, { expectedRevision: 'no_stream' });
        appended.push(...events.map((event) => event.id));
      }
      const recorder = new SubscriptionRecorder(store, { after: START, maxBatchSize: 4 });
      onTestFinished(() => recorder.stop());
      await recorder.waitForIds(appended);
      await recorder.stop();
      expect(recorder.allEvents.map((event) => event.id)).toEqual(appended);
    });
  }

  it('aborting the signal ends the iteration, also while it waits for new events', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    const before = await store.headPosition();
    await store.append(streamId, [newEvent()], { expectedRevision: 'no_stream' });
    const recorder = new SubscriptionRecorder(
      store,
      { after: before },
      (event) => event.streamId === streamId,
    );
    await recorder.waitFor('the first event', (events) => events.length === 1);

    await recorder.stop();
    expect(recorder.hasEnded).toBe(true);

    const aborted = new AbortController();
    aborted.abort();
    const batches: unknown[] = [];
    for await (const batch of store.subscribeAll({ after: before, signal: aborted.signal }))
      batches.push(batch);
    expect(batches).toEqual([]);
  });

  it('breaking out of the loop ends the subscription', async () => {
    const store = await openStore();
    const streamId = newStreamId();
    const before = await store.headPosition();
    const result = await store.append(streamId, newEvents(3), { expectedRevision: 'no_stream' });
    let seen = 0;
    for await (const batch of store.subscribeAll({ after: before, maxBatchSize: 1 })) {
      seen += batch.filter((event) => event.streamId === streamId).length;
      if (comparePositions(batch[batch.length - 1]?.position ?? START, result.position) >= 0) break;
    }
    expect(seen).toBe(3);
  });

  it('close ends running subscriptions', async () => {
    const store = await options.createStore();
    const recorder = new SubscriptionRecorder(store, { after: await store.headPosition() });
    await store.close();
    await recorder.whenEnded();
    expect(recorder.hasEnded).toBe(true);
  });

  it('lastWrittenPosition reaches every append at once', async () => {
    const store = await openStore();
    if (options.exclusive) expect(await store.lastWrittenPosition()).toEqual(START);
    const first = await store.append(newStreamId(), newEvents(2), { expectedRevision: 'no_stream' });
    expect(comparePositions(await store.lastWrittenPosition(), first.position)).toBeGreaterThanOrEqual(0);
    const second = await store.append(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });
    const last = await store.lastWrittenPosition();
    expect(comparePositions(last, second.position)).toBeGreaterThanOrEqual(0);
    if (options.exclusive) expect(last).toEqual(second.position);
  });

  it('headPosition is the position of the newest event', async () => {
    const store = await openStore();
    if (options.exclusive) expect(await store.headPosition()).toEqual(START);
    const first = await store.append(newStreamId(), newEvents(2), { expectedRevision: 'no_stream' });
    const firstHead = await headReaching(store, first.position);
    const second = await store.append(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });
    const secondHead = await headReaching(store, second.position);

    if (options.exclusive) {
      expect(firstHead).toEqual(first.position);
      expect(secondHead).toEqual(second.position);
    } else {
      expect(comparePositions(firstHead, first.position)).toBeGreaterThanOrEqual(0);
      expect(comparePositions(secondHead, second.position)).toBeGreaterThanOrEqual(0);
    }
  });
}

function expectExactlyOneWinner(outcomes: readonly PromiseSettledResult<AppendResult>[]): void {
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
  expect(refused).toHaveLength(1);
  expect(refused[0]?.reason).toBeInstanceOf(ConcurrencyError);
}

function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
