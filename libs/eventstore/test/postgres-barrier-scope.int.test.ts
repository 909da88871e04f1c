import { START, comparePositions } from '@portal/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SubscriptionRecorder, newEvent, newStreamId } from './event-store-test-kit.js';
import { PostgresTestStores, testDatabaseUrl } from './postgres-test-database.js';

/**
 * The barrier waits for this store's appenders and nothing else. On a shared PostgreSQL cluster other
 * databases and services run long write transactions (migrations, bulk loads, other test suites);
 * none of them may hold back a subscriber, a head or a sync position of this store.
 */
describe('PostgresEventStore barrier scope', () => {
  let stores: PostgresTestStores;
  beforeAll(async () => {
    stores = await PostgresTestStores.open();
  });
  afterAll(() => stores.dispose());

  /** A connection inside an open transaction that has written, i.e. holds a transaction id. */
  async function openWriteTransaction(databaseUrl: string, write: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    onTestFinished(async () => {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    });
    await client.query('BEGIN');
    await client.query(write);
    const { rows } = await client.query<{ xid: string | null }>(
      'SELECT pg_current_xact_id_if_assigned()::text AS xid',
    );
    expect(rows[0]?.xid).not.toBeNull();
    return client;
  }

  function otherDatabaseUrl(): string {
    const url = new URL(testDatabaseUrl);
    url.pathname = '/postgres';
    return url.toString();
  }

  async function expectDeliveredWhileOpen(heldOpen: pg.ClientBase): Promise<void> {
    const store = await stores.createStore({ pollIntervalMs: 20 });
    onTestFinished(() => store.close());
    const recorder = new SubscriptionRecorder(store, { after: START });
    onTestFinished(() => recorder.stop());

    const event = newEvent('AppendedBesideALongTransaction');
    const { position } = await store.append(newStreamId(), [event], { expectedRevision: 'no_stream' });

    await recorder.waitForIds([event.id]);
    expect(await store.headPosition()).toEqual(position);
    expect(comparePositions(await store.syncPosition(), position)).toBe(0);
    // The other transaction was open the whole time: it still holds its transaction id.
    const { rows } = await heldOpen.query<{ xid: string | null }>(
      'SELECT pg_current_xact_id_if_assigned()::text AS xid',
    );
    expect(rows[0]?.xid).not.toBeNull();
  }

  it('a write transaction open in another database holds nothing back', async () => {
    const held = await openWriteTransaction(
      otherDatabaseUrl(),
      'CREATE TEMPORARY TABLE held_open (id int) ON COMMIT DROP',
    );
    await expectDeliveredWhileOpen(held);
  });

  it('a write transaction in the same database that does not append holds nothing back', async () => {
    const held = await openWriteTransaction(testDatabaseUrl, 'CREATE TEMPORARY TABLE held_open (id int)');
    await expectDeliveredWhileOpen(held);
  });

  it("an open append to another store's schema holds nothing back", async () => {
    const other = await stores.createStore();
    const held = await stores.pool.connect();
    onTestFinished(async () => {
      await held.query('ROLLBACK').catch(() => undefined);
      held.release();
    });
    await held.query('BEGIN');
    await other.appendWithin(held, newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });
    await expectDeliveredWhileOpen(held);
  });

  it('refuses to append in a transaction that wrote before it became an appender', async () => {
    const store = await stores.createStore();
    const client = await stores.pool.connect();
    onTestFinished(async () => {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    });
    await client.query('BEGIN');
    await client.query('SELECT pg_current_xact_id()');
    await expect(
      store.appendWithin(client, newStreamId(), [newEvent()], { expectedRevision: 'no_stream' }),
    ).rejects.toThrow(/wrote before it appended/);
    await client.query('ROLLBACK');
    expect(await store.lastWrittenPosition()).toEqual(START);
  });

  it('a transaction made an appender before its first write is held back until it commits', async () => {
    const store = await stores.createStore({ pollIntervalMs: 20 });
    onTestFinished(() => store.close());
    const recorder = new SubscriptionRecorder(store, { after: START });
    onTestFinished(() => recorder.stop());
    const early = newEvent('AppendedAfterOtherWrites');
    const late = newEvent('CommittedFirst');

    const client = await stores.pool.connect();
    try {
      await client.query('BEGIN');
      await store.prepareToAppend(client);
      await client.query('SELECT pg_current_xact_id()');
      await store.appendWithin(client, newStreamId(), [early], { expectedRevision: 'no_stream' });
      await store.append(newStreamId(), [late], { expectedRevision: 'no_stream' });
      // The late event is committed, but a subscriber may not pass the open early one.
      expect(await store.headPosition()).toEqual(START);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await recorder.waitForIds([early.id, late.id]);
    expect(recorder.allEvents.map((event) => event.id)).toEqual([early.id, late.id]);
  });
});
