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

  it('holds back neither projection nor moves', async () => {
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
    const child = await expectCommand(await create('Child'), 201, 'create child');
    const parentId = parent.body.portalItemId;
    const childId = child.body.portalItemId;

    // A move waits until the read models cover every append acknowledged before it: it answers 200
    // rather than 503 only if that wait does not depend on the open transaction.
    const moved = await call('POST', `/api/v1/portal/items/${childId}/move`, {
      headers: user.headers,
      body: { parentId },
    });
    expect(moved.status).toBe(200);
    const children = await call<{ items: { id: string }[] }>(
      'GET',
      `/api/v1/browser/nodes/${parentId}/children`,
      {
        headers: user.headers,
      },
    );
    expect(children.status).toBe(200);
    expect(children.body.items.map((item) => item.id)).toEqual([childId]);
    expect(await stillOpen()).toBe(true);
  });
});
