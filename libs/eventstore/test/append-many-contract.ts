import { ConcurrencyError, comparePositions } from '@portal/domain';
import type { AppendOutcome, EventStore, StreamAppend } from '@portal/domain';
import { expect, it } from 'vitest';
import { DuplicateEventIdError } from '../src/index.js';
import { isStrictlyIncreasing, newEvent, newEvents, newStreamId } from './event-store-test-kit.js';

export interface AppendManyContractOptions {
  readonly openStore: () => Promise<EventStore>;
  /** `true` when one call is one transaction, so positions follow the request (PostgreSQL, in-memory). */
  readonly inOneTransaction: boolean;
  /** As in the main contract: event ids unique across streams. */
  readonly uniqueEventIds: boolean;
}

function results(outcomes: readonly AppendOutcome[]) {
  return outcomes.map((outcome) => {
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  });
}

/** `appendMany`: per-entry expected revisions, all or nothing per entry, one outcome each, in order. */
export function appendManyContract(options: AppendManyContractOptions): void {
  it('appendMany writes every entry with its own expected revision and reports each in order', async () => {
    const store = await options.openStore();
    const existing = newStreamId('existing');
    await store.append(existing, newEvents(2), { expectedRevision: 'no_stream' });
    const fresh = newStreamId('fresh');
    const anyStream = newStreamId('any');
    const appends: StreamAppend[] = [
      { streamId: fresh, events: newEvents(3), expectedRevision: 'no_stream' },
      { streamId: existing, events: newEvents(1), expectedRevision: 1n },
      { streamId: anyStream, events: newEvents(2), expectedRevision: 'any' },
    ];
    const written = results(await store.appendMany(appends));

    expect(written.map((result) => result.nextRevision)).toEqual([2n, 2n, 1n]);
    for (const [index, { streamId, events }] of appends.entries()) {
      const stored = await store.readStream(streamId);
      expect(stored.slice(-events.length).map((event) => event.id)).toEqual(events.map((event) => event.id));
      expect(stored.at(-1)?.position).toEqual(written[index]?.position);
    }
    if (options.inOneTransaction) {
      expect(isStrictlyIncreasing(written.map((result) => result.position))).toBe(true);
    }
  });

  it('appendMany refuses an entry whose expectation fails and writes the others', async () => {
    const store = await options.openStore();
    const taken = newStreamId('taken');
    await store.append(taken, newEvents(1), { expectedRevision: 'no_stream' });
    const missing = newStreamId('missing');
    const good = newStreamId('good');
    const outcomes = await store.appendMany([
      { streamId: taken, events: newEvents(2), expectedRevision: 'no_stream' },
      { streamId: good, events: newEvents(2), expectedRevision: 'no_stream' },
      { streamId: missing, events: newEvents(1), expectedRevision: 'exists' },
    ]);

    expect(outcomes.map((outcome) => outcome.ok)).toEqual([false, true, false]);
    for (const outcome of [outcomes[0], outcomes[2]]) {
      expect(outcome?.ok === false && outcome.error).toBeInstanceOf(ConcurrencyError);
    }
    // All or nothing per entry: the refused streams are as they were, the good one is complete.
    expect(await store.readStream(taken)).toHaveLength(1);
    expect(await store.readStream(missing)).toEqual([]);
    expect(await store.readStream(good)).toHaveLength(2);
  });

  it('a retried appendMany returns the original results and writes nothing again', async () => {
    const store = await options.openStore();
    const existing = newStreamId('existing');
    await store.append(existing, newEvents(1), { expectedRevision: 'no_stream' });
    const appends: StreamAppend[] = [
      { streamId: newStreamId(), events: newEvents(2), expectedRevision: 'no_stream' },
      { streamId: newStreamId(), events: newEvents(1), expectedRevision: 'no_stream' },
      { streamId: existing, events: newEvents(2), expectedRevision: 'exists' },
    ];
    if (options.uniqueEventIds) {
      // EventStoreDB keeps the idempotence of `any` best-effort only.
      appends.push({ streamId: newStreamId(), events: newEvents(1), expectedRevision: 'any' });
    }
    const first = results(await store.appendMany(appends));
    const retried = results(await store.appendMany(appends));
    expect(retried).toEqual(first);
    for (const { streamId, events } of appends) {
      expect(await store.readStream(streamId)).toHaveLength(events.length + (streamId === existing ? 1 : 0));
    }
  });

  if (options.uniqueEventIds) {
    it('an entry reusing an event id stored elsewhere is refused alone', async () => {
      const store = await options.openStore();
      const stored = newEvent();
      await store.append(newStreamId(), [stored], { expectedRevision: 'no_stream' });
      const reusing = newStreamId('reusing');
      const good = newStreamId('good');
      const outcomes = await store.appendMany([
        { streamId: good, events: newEvents(1), expectedRevision: 'no_stream' },
        { streamId: reusing, events: [newEvent(), stored], expectedRevision: 'no_stream' },
      ]);
      expect(outcomes[0]?.ok).toBe(true);
      expect(outcomes[1]?.ok === false && outcomes[1].error).toBeInstanceOf(DuplicateEventIdError);
      expect(await store.readStream(reusing)).toEqual([]);
      expect(await store.readStream(good)).toHaveLength(1);
    });
  }

  it('of two concurrent appendMany calls creating the same streams, each stream has one winner', async () => {
    const store = await options.openStore();
    const streams = Array.from({ length: 8 }, (_, index) => newStreamId(`race-${index}`));
    const call = () =>
      store.appendMany(
        streams.map((streamId) => ({
          streamId,
          events: newEvents(1),
          expectedRevision: 'no_stream' as const,
        })),
      );
    const [left, right] = await Promise.all([call(), call()]);
    for (const [index, streamId] of streams.entries()) {
      const pair = [left[index], right[index]];
      expect(pair.filter((outcome) => outcome?.ok)).toHaveLength(1);
      const refused = pair.find((outcome) => outcome?.ok === false);
      expect(refused?.ok === false && refused.error).toBeInstanceOf(ConcurrencyError);
      const stored = await store.readStream(streamId);
      expect(stored).toHaveLength(1);
      const winner = pair.find((outcome) => outcome?.ok);
      expect(
        winner?.ok && comparePositions(winner.result.position, stored[0]?.position ?? winner.result.position),
      ).toBe(0);
    }
  });

  it('appendMany refuses a stream named twice, and an empty call writes nothing', async () => {
    const store = await options.openStore();
    const streamId = newStreamId();
    await expect(
      store.appendMany([
        { streamId, events: newEvents(1), expectedRevision: 'no_stream' },
        { streamId, events: newEvents(1), expectedRevision: 0n },
      ]),
    ).rejects.toThrow(RangeError);
    expect(await store.readStream(streamId)).toEqual([]);
    expect(await store.appendMany([])).toEqual([]);
  });
}
