import { randomBytes } from 'node:crypto';
import type { Pool } from '@portal/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogCreated, streamOf, toAppend } from './support/portal-events.js';
import {
  openFixture,
  startProjector,
  waitUntilCaughtUp,
  type ProjectorFixture,
} from './support/projector-fixture.js';
import { openTestPool } from './support/test-database.js';
import { waitFor } from './support/wait-for.js';

let fixture: ProjectorFixture;
const pools: Pool[] = [];

beforeEach(async () => {
  fixture = await openFixture('leadership');
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
  await fixture.close();
});

/** A pool of its own per instance, as two processes would have. */
function instancePool(name: string): { pool: Pool; applicationName: string } {
  const applicationName = `${name}-${randomBytes(4).toString('hex')}`;
  const pool = openTestPool(applicationName, 4);
  pools.push(pool);
  return { pool, applicationName };
}

async function appendCatalog(title: string): Promise<void> {
  const event = catalogCreated({ title });
  await fixture.store.append(streamOf(event), [toAppend(event)], { expectedRevision: 'no_stream' });
}

describe('leader and standby', () => {
  it('keeps a second instance on standby and lets it take over when the leader dies', async () => {
    const a = instancePool('projector-a');
    const b = instancePool('projector-b');
    const leader = startProjector(fixture, { name: 'a', pool: a.pool });
    await waitFor('a to lead', () =>
      Promise.resolve(leader.logs.messages().includes('leader: holding the projection lock')),
    );
    const standby = startProjector(fixture, { name: 'b', pool: b.pool });
    await waitFor('b to wait', () =>
      Promise.resolve(standby.logs.messages().includes('standby: another projector holds the lock')),
    );

    await appendCatalog('while a leads');
    await waitUntilCaughtUp(fixture);
    expect(standby.logs.messages()).not.toContain('leader: holding the projection lock');

    // The leader "dies": it can no longer reach the database (its pool refuses new connections) and
    // every connection it had is closed from the server side, taking its session lock along.
    pools.splice(pools.indexOf(a.pool), 1);
    const aEnded = a.pool.end();
    await fixture.pool.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [a.applicationName],
    );
    // How soon is the standby's retry interval (`standbyRetryMs`, a second by default), not asserted here.
    await waitFor('b to take over', () =>
      Promise.resolve(standby.logs.messages().includes('leader: holding the projection lock')),
    );

    await appendCatalog('after b took over');
    await waitUntilCaughtUp(fixture);
    await standby.stop();
    await leader.stop();
    await aEnded;

    expect(leader.logs.messages()).toContain('lost the projection lock connection; stepping down');
    const titles = await fixture.pool.query(
      `SELECT title FROM "${fixture.readSchema}".portal_objects ORDER BY title`,
    );
    expect(titles.rows).toEqual([{ title: 'after b took over' }, { title: 'while a leads' }]);
  });
});
