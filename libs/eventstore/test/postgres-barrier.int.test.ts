import { setTimeout as delay } from 'node:timers/promises';
import { START, comparePositions, type Position } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  SubscriptionRecorder,
  isStrictlyIncreasing,
  newEvent,
  newEvents,
  newStreamId,
  waitUntil,
} from './event-store-test-kit.js';
import { PostgresTestStores } from './postgres-test-database.js';

/**
 * The hard part of the PostgreSQL adapter: a bigserial position is taken at INSERT but becomes
 * visible at COMMIT, so transactions that commit out of order must neither be skipped nor passed.
 */
describe('PostgresEventStore ordering under out-of-order commits', () => {
  let stores: PostgresTestStores;
  beforeAll(async () => {
    stores = await PostgresTestStores.open();
  });
  afterAll(() => stores.dispose());

  it('does not pass an append whose transaction is open, and delivers it first once committed', async () => {
    let pageReads = 0;
    const store = await stores.createStore({
      pollIntervalMs: 20,
      onPageRead: () => {
        pageReads += 1;
      },
    });
    onTestFinished(() => store.close());
    const recorder = new SubscriptionRecorder(store, { after: START });
    const early = newEvent('AppendedFirstCommittedLast');
    const late = newEvent('AppendedLastCommittedFirst');

    const held = await stores.pool.connect();
    try {
      await held.query('BEGIN');
      const earlyResult = await store.appendWithin(held, newStreamId(), [early], {
        expectedRevision: 'no_stream',
      });
      const lateResult = await store.append(newStreamId(), [late], { expectedRevision: 'no_stream' });
      expect(comparePositions(earlyResult.position, lateResult.position)).toBe(-1);

      // The late event is committed and visible to plain reads, yet no subscriber may receive it:
      // its position is beyond the still-invisible early one. Let the subscriber read a few pages.
      const readsAtCommit = pageReads;
      await waitUntil('three subscriber reads after the late commit', () => pageReads >= readsAtCommit + 3);
      expect(recorder.allEvents).toEqual([]);
      expect(await store.headPosition()).toEqual(START);
      // Written and committed all the same: a client holding its position asks for something that exists.
      expect(await store.lastWrittenPosition()).toEqual(lateResult.position);

      await held.query('COMMIT');
    } finally {
      held.release();
    }

    await recorder.waitForIds([early.id, late.id]);
    await recorder.stop();
    expect(recorder.allEvents.map((event) => event.id)).toEqual([early.id, late.id]);
  });

  it('syncPosition waits for an append still open when it was called, then covers it', async () => {
    const store = await stores.createStore({ pollIntervalMs: 20 });
    onTestFinished(() => store.close());
    const early = newEvent('AppendedFirstCommittedLast');
    const late = newEvent('AppendedLastCommittedFirst');
    const held = await stores.pool.connect();
    let earlyPosition;
    let synced: Position | undefined;
    try {
      await held.query('BEGIN');
      earlyPosition = (
        await store.appendWithin(held, newStreamId(), [early], { expectedRevision: 'no_stream' })
      ).position;
      const lateResult = await store.append(newStreamId(), [late], { expectedRevision: 'no_stream' });
      const sync = store.syncPosition().then((position) => {
        synced = position;
        return position;
      });
      // The head may not cover the late append yet: the early one is still open below it.
      await delay(200);
      expect(synced).toBeUndefined();
      await held.query('COMMIT');
      const position = await sync;
      expect(comparePositions(position, lateResult.position)).toBeGreaterThanOrEqual(0);
      expect(comparePositions(position, earlyPosition)).toBeGreaterThan(0);
    } finally {
      held.release();
    }
  });

  it('a rolled-back append is never delivered and stops holding back later events', async () => {
    const store = await stores.createStore({ pollIntervalMs: 20 });
    onTestFinished(() => store.close());
    const recorder = new SubscriptionRecorder(store, { after: START });
    const rolledBack = newEvent('NeverCommitted');
    const kept = newEvent('Committed');

    const held = await stores.pool.connect();
    try {
      await held.query('BEGIN');
      await store.appendWithin(held, newStreamId(), [rolledBack], { expectedRevision: 'no_stream' });
      await store.append(newStreamId(), [kept], { expectedRevision: 'no_stream' });
      await held.query('ROLLBACK');
    } finally {
      held.release();
    }

    await recorder.waitForIds([kept.id]);
    await recorder.stop();
    expect(recorder.allEvents.map((event) => event.id)).toEqual([kept.id]);
  });

  it('with concurrent appenders committing in random order, delivers every event once, in order', async () => {
    const store = await stores.createStore({ pollIntervalMs: 50 });
    onTestFinished(() => store.close());
    const live = new SubscriptionRecorder(store, { after: START, maxBatchSize: 7 });
    onTestFinished(() => live.stop());
    const appenders = 8;
    const appendsPerAppender = 25;
    const commitOrder: string[] = [];

    await Promise.all(
      Array.from({ length: appenders }, async (_, appender) => {
        const streamId = newStreamId(`appender-${appender}`);
        for (let index = 0; index < appendsPerAppender; index += 1) {
          const events = newEvents(1 + (index % 3));
          const expectedRevision = index === 0 ? 'no_stream' : 'exists';
          if (index % 4 === 3) {
            await store.append(streamId, events, { expectedRevision });
          } else {
            const client = await stores.pool.connect();
            try {
              await client.query('BEGIN');
              await store.appendWithin(client, streamId, events, { expectedRevision });
              // Holds the transaction open for a random while so commits overtake each other.
              await delay(Math.random() * 15);
              await client.query('COMMIT');
            } finally {
              client.release();
            }
          }
          commitOrder.push(...events.map((event) => event.id));
        }
      }),
    );

    await live.waitForIds(commitOrder, 30_000);
    await live.stop();
    const catchUp = new SubscriptionRecorder(store, { after: START, maxBatchSize: 100 });
    await catchUp.waitForIds(commitOrder, 30_000);
    await catchUp.stop();

    for (const recorder of [live, catchUp]) {
      const delivered = recorder.allEvents;
      expect(delivered.map((event) => event.id).sort()).toEqual([...commitOrder].sort());
      expect(isStrictlyIncreasing(delivered.map((event) => event.position))).toBe(true);
    }
    expect(catchUp.allEvents).toEqual(live.allEvents);
    // Proves the run exercised the barrier: commits did overtake earlier positions.
    expect(live.allEvents.map((event) => event.id)).not.toEqual(commitOrder);
  });
});
