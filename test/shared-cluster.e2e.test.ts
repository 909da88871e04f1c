import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedInUser } from './support/auth.js';
import { call, expectCommand } from './support/http.js';

/**
 * The service shares its PostgreSQL cluster with other databases and services, some of them holding
 * long write transactions (migrations, bulk loads, another suite's tests). Projection and the
 * structure operations wait only for this service's own appends (libs/eventstore/README.md, "The barrier"), so
 * such a transaction, open for the whole test, holds nothing back.
 */

/** How long the other transaction stays open while the service writes: longer than any wait of the API. */
const HELD_OPEN_SECONDS = 30;
/** Between two writes while it is open, so they spread over the whole time. */
const WRITE_PAUSE_MS = 3_000;
describe('a long write transaction elsewhere in the cluster', () => {
  let elsewhere: pg.Client;
  let user: SignedInUser;

  beforeAll(async () => {
    // The suite's admin database, not the stack's own: another database of the same cluster.
    elsewhere = new pg.Client({
      connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test',
    });
    await elsewhere.connect();
    await elsewhere.query('BEGIN');
    await elsewhere.query('CREATE TEMPORARY TABLE held_open (id int) ON COMMIT DROP');
    user = await signUp({ name: 'Beside a long transaction' });
  });

  afterAll(async () => {
    await elsewhere.query('ROLLBACK');
    await elsewhere.end();
  });

  async function stillOpen(): Promise<boolean> {
    const { rows } = await elsewhere.query<{ xid: string | null }>(
      'SELECT pg_current_xact_id_if_assigned()::text AS xid',
    );
    return rows[0]?.xid != null;
  }

  /** Seconds since the other transaction began, by the server's clock (`now()` is its start). */
  async function heldOpenFor(): Promise<number> {
    const { rows } = await elsewhere.query<{ seconds: number }>(
      'SELECT extract(epoch FROM clock_timestamp() - now())::float8 AS seconds',
    );
    return rows[0]?.seconds ?? 0;
  }

  it(`held open for ${HELD_OPEN_SECONDS} s, holds back neither projection nor moves`, async () => {
    const create = (title: string, parentId?: string) =>
      call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
        headers: user.headers,
        body: {
          title,
          description: 'beside a long transaction',
          links: [],
          ...(parentId ? { parentId } : {}),
        },
      });
    const parent = await expectCommand(await create('Parent'), 201, 'create parent');
    const parentId = parent.body.portalItemId;
    // Appends go on the whole time it is open: each is projected while it stays open (were projection
    // waiting for it, none would be until it ends), and each move answers 200: it waits for the read
    // models to cover every append before it, and answers 503 when they do not within the API's wait.
    let children = 0;
    while ((await heldOpenFor()) < HELD_OPEN_SECONDS) {
      children += 1;
      const meanwhile = await expectCommand(await create(`Meanwhile ${children}`), 201, 'create meanwhile');
      const movedMeanwhile = await call('POST', `/api/v1/portal/items/${meanwhile.body.portalItemId}/move`, {
        headers: user.headers,
        body: { parentId },
      });
      expect(movedMeanwhile.status).toBe(200);
      expect(await stillOpen()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, WRITE_PAUSE_MS));
    }
    expect(children).toBeGreaterThan(1);
    const child = await expectCommand(await create('Child'), 201, 'create child');
    const childId = child.body.portalItemId;

    // A move waits until the read models cover every append acknowledged before it: it answers 200
    // rather than 503 only if that wait does not depend on the open transaction.
    const moved = await call('POST', `/api/v1/portal/items/${childId}/move`, {
      headers: user.headers,
      body: { parentId },
    });
    expect(moved.status).toBe(200);
    const listed = await call<{ items: { id: string }[] }>(
      'GET',
      `/api/v1/browser/nodes/${parentId}/children`,
      {
        headers: user.headers,
      },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item) => item.id)).toContain(childId);
    expect(listed.body.items).toHaveLength(children + 1);
    expect(await stillOpen()).toBe(true);
    expect(await heldOpenFor()).toBeGreaterThanOrEqual(HELD_OPEN_SECONDS);
  }, 180_000);
});
