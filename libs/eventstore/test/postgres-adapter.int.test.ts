import { randomUUID } from 'node:crypto';
import { ConcurrencyError, START } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PostgresEventStore, ensureEventStoreSchema } from '../src/index.js';
import {
  SubscriptionRecorder,
  newEvent,
  newMetadata,
  newStreamId,
  waitUntil,
} from './event-store-test-kit.js';
import { PostgresTestStores } from './postgres-test-database.js';

/** What only the PostgreSQL adapter has: connections, notifications, caller transactions, its schema. */
describe('PostgresEventStore connections and transactions', () => {
  let stores: PostgresTestStores;
  beforeAll(async () => {
    stores = await PostgresTestStores.open();
  });
  afterAll(() => stores.dispose());

  const checkedOutClients = (): number => stores.pool.totalCount - stores.pool.idleCount;

  /** Another instance on the same schema, as another process has: it can wake `store` only by NOTIFY. */
  function anotherProcessOf(store: PostgresEventStore): PostgresEventStore {
    const other = new PostgresEventStore(stores.pool, { schema: store.schema });
    onTestFinished(() => other.close());
    return other;
  }

  it('shares one LISTEN connection between subscriptions and gives it back when they end', async () => {
    const store = await stores.createStore();
    onTestFinished(() => store.close());
    const channel = `${store.schema}_appended`;
    const first = new SubscriptionRecorder(store, { after: START });
    const second = new SubscriptionRecorder(store, { after: START });
    const event = newEvent();
    await store.append(newStreamId(), [event], { expectedRevision: 'no_stream' });
    await first.waitForIds([event.id]);
    await second.waitForIds([event.id]);
    expect(await listenerPids(channel)).toHaveLength(1);

    await first.stop();
    expect(await listenerPids(channel)).toHaveLength(1);
    await second.stop();
    expect(await listenerPids(channel)).toHaveLength(0);
    expect(checkedOutClients()).toBe(0);
  });

  it('delivers an event whose notification was lost, by polling', async () => {
    let pageReads = 0;
    const store = await stores.createStore({
      pollIntervalMs: 100,
      onPageRead: () => {
        pageReads += 1;
      },
    });
    onTestFinished(() => store.close());
    const recorder = new SubscriptionRecorder(store, { after: START });
    onTestFinished(() => recorder.stop());
    // Only once the subscriber has found nothing and gone to wait can polling alone wake it.
    await waitUntil('the first empty read', () => pageReads >= 1);
    const schema = store.schema;
    const eventId = randomUUID();
    // Written behind the adapter's back: no pg_notify, as if the notification had been lost.
    await stores.pool.query(
      `INSERT INTO "${schema}".events (stream_id, stream_revision, event_id, type, data, metadata)
       VALUES ($1, 0, $2, 'Silent', '{}', $3)`,
      [newStreamId(), eventId, JSON.stringify(newMetadata())],
    );
    await recorder.waitForIds([eventId], 5_000);
  });

  it('keeps subscriptions alive when the LISTEN connection dies, and listens again', async () => {
    const listenerErrors: Error[] = [];
    // A poll interval far beyond the deadline: delivery below can only come from a notification.
    const store = await stores.createStore({
      pollIntervalMs: 600_000,
      onListenerError: (error) => listenerErrors.push(error),
    });
    onTestFinished(() => store.close());
    const recorder = new SubscriptionRecorder(store, { after: START });
    onTestFinished(() => recorder.stop());
    const channel = `${store.schema}_appended`;
    await waitUntil('the listener', async () => (await listenerPids(channel)).length === 1);

    const [killed] = await listenerPids(channel);
    await stores.pool.query('SELECT pg_terminate_backend($1)', [killed]);
    await waitUntil('the lost connection to be noticed', () => listenerErrors.length > 0);
    await waitUntil('a new listener', async () => {
      const pids = await listenerPids(channel);
      return pids.length === 1 && pids[0] !== killed;
    });

    const event = newEvent();
    await anotherProcessOf(store).append(newStreamId(), [event], { expectedRevision: 'no_stream' });
    await recorder.waitForIds([event.id], 5_000);
  });

  it('wakes subscribers of other processes after concurrent appends commit, by coalesced notifications', async () => {
    // A poll interval far beyond the deadline: delivery below can only come from a notification.
    const store = await stores.createStore({ pollIntervalMs: 600_000 });
    onTestFinished(() => store.close());
    const recorder = new SubscriptionRecorder(store, { after: START });
    onTestFinished(() => recorder.stop());
    await waitUntil(
      'the listener',
      async () => (await listenerPids(`${store.schema}_appended`)).length === 1,
    );

    const appender = anotherProcessOf(store);
    const events = Array.from({ length: 40 }, () => newEvent());
    await Promise.all(
      events.map((event) => appender.append(newStreamId(), [event], { expectedRevision: 'no_stream' })),
    );
    await recorder.waitForIds(
      events.map((event) => event.id),
      5_000,
    );
  });

  it('a refused first appendWithin still leaves its transaction an appender', async () => {
    const store = await stores.createStore();
    onTestFinished(() => store.close());
    const client = await stores.pool.connect();
    onTestFinished(async () => {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    });
    await client.query('BEGIN');
    await expect(
      store.appendWithin(client, newStreamId(), [newEvent()], { expectedRevision: 'exists' }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    // The transaction writes now; it holds the appender lock from before, so it may still append.
    await client.query('SELECT pg_current_xact_id()');
    const kept = newEvent();
    await store.appendWithin(client, newStreamId(), [kept], { expectedRevision: 'no_stream' });
    await client.query('COMMIT');
    expect((await store.lastWrittenPosition()).commit).toBeGreaterThan(0n);
  });

  it('concurrent appendMany calls over the same streams in opposite orders and kinds all succeed', async () => {
    const store = await stores.createStore();
    onTestFinished(() => store.close());
    const [x, y] = [newStreamId('x'), newStreamId('y')];
    await store.appendMany([
      { streamId: x, events: [newEvent()], expectedRevision: 'no_stream' },
      { streamId: y, events: [newEvent()], expectedRevision: 'no_stream' },
    ]);
    const rounds = 20;
    for (let round = 0; round < rounds; round += 1) {
      const outcomes = await Promise.all([
        store.appendMany([
          { streamId: x, events: [newEvent()], expectedRevision: 'any' },
          { streamId: y, events: [newEvent()], expectedRevision: 'exists' },
        ]),
        store.appendMany([
          { streamId: y, events: [newEvent()], expectedRevision: 'any' },
          { streamId: x, events: [newEvent()], expectedRevision: 'exists' },
        ]),
      ]);
      expect(outcomes.flat().every((outcome) => outcome.ok)).toBe(true);
    }
    for (const streamId of [x, y]) {
      const stored = await store.readStream(streamId);
      expect(stored.map((event) => event.revision)).toEqual(
        Array.from({ length: 1 + 2 * rounds }, (_, index) => BigInt(index)),
      );
    }
  });

  it('appendWithin commits and rolls back with the caller, and a refusal keeps its transaction usable', async () => {
    const store = await stores.createStore();
    onTestFinished(() => store.close());
    const streamId = newStreamId();
    const client = await stores.pool.connect();
    try {
      await client.query('BEGIN');
      await store.appendWithin(client, streamId, [newEvent()], { expectedRevision: 'no_stream' });
      await client.query('ROLLBACK');
      expect(await store.readStream(streamId)).toEqual([]);

      await client.query('BEGIN');
      await expect(
        store.appendWithin(client, streamId, [newEvent()], { expectedRevision: 'exists' }),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      const kept = newEvent();
      await store.appendWithin(client, streamId, [kept], { expectedRevision: 'no_stream' });
      // A retry inside the transaction hits the unique event id; the savepoint absorbs it.
      await store.appendWithin(client, streamId, [kept], { expectedRevision: 'no_stream' });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect((await store.readStream(streamId)).map((event) => event.revision)).toEqual([0n]);
  });

  it('ensureEventStoreSchema is idempotent, also when run concurrently', async () => {
    const schema = `es_test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    onTestFinished(async () => {
      await stores.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
    await Promise.all([1, 2, 3].map(() => ensureEventStoreSchema(stores.pool, { schema })));
    await ensureEventStoreSchema(stores.pool, { schema });
    const tables = await stores.pool.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [schema],
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual(['events', 'streams']);
  });

  it('keeps the stored JSON text when asked, for events delivered as stored only', async () => {
    const store = await stores.createStore();
    onTestFinished(() => store.close());
    const data = {
      id: randomUUID(),
      title: 'a "quoted"\\ title\n\tÿ ✓',
      n: [1e21, 0.1, -0, 12345678901234567000],
    };
    const asStored = { ...newEvent('CatalogCreated', data), metadata: newMetadata({ schemaVersion: 2 }) };
    const upcast = { ...newEvent('CatalogCreated', data), metadata: newMetadata({ schemaVersion: 1 }) };
    await store.append(newStreamId(), [asStored, upcast], { expectedRevision: 'no_stream' });
    const firstPage = async (keepStoredJson: boolean) => {
      for await (const page of store.subscribeAll({ after: START, keepStoredJson })) return page;
      return [];
    };

    const [kept, upcastKept] = await firstPage(true);
    const [plain, upcastPlain] = await firstPage(false);
    // The text parses to exactly what the event carries, and the event is what a plain read gives.
    expect(kept?.storedJson).toBeDefined();
    expect(JSON.parse(kept?.storedJson?.data ?? '')).toEqual(kept?.data);
    expect(JSON.parse(kept?.storedJson?.metadata ?? '')).toEqual(kept?.metadata);
    expect({ ...kept, storedJson: undefined }).toEqual({ ...plain, storedJson: undefined });
    expect(plain?.storedJson).toBeUndefined();
    // An upcast event no longer has the stored data: no text.
    expect(upcastKept?.storedJson).toBeUndefined();
    expect(upcastKept).toEqual(upcastPlain);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(
      ensureEventStoreSchema(stores.pool, { schema: 'x"; DROP TABLE y; --' }),
    ).rejects.toBeInstanceOf(RangeError);
  });

  async function listenerPids(channel: string): Promise<number[]> {
    const result = await stores.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = $1`,
      [`LISTEN "${channel}"`],
    );
    return result.rows.map((row) => row.pid);
  }
});
