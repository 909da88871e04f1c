import { randomBytes } from 'node:crypto';
import { createPool, type Pool } from '@portal/platform';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { portalProjection } from '../../../projector/src/portal-projection.js';
import { ensureReadSchema } from '../../../projector/src/schemas.js';

const TEST_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';

async function onServer(work: (admin: pg.Client) => Promise<void>): Promise<void> {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A database of the test file's own with the read schema (`read`, as the API's queries name it), created
 * before its tests and dropped after: the queries under test read whole levels and totals, which rows of
 * other tests in a shared database would change.
 */
export function useReadDatabase(name: string): { readonly pool: Pool; readonly connectionString: string } {
  const database = `api_${name}_${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${database}`;
  let opened: Pool | undefined;

  beforeAll(async () => {
    await onServer(async (admin) => {
      await admin.query(`CREATE DATABASE "${database}"`);
    });
    opened = createPool({ connectionString: url.toString(), applicationName: `${name}-test`, max: 4 });
    // The drop below ends connections a closing pool has not yet closed itself; that is expected.
    opened.on('error', () => undefined);
    await opened.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await ensureReadSchema(opened, { schema: 'read', projection: portalProjection });
  });

  afterAll(async () => {
    await opened?.end();
    await onServer(async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    });
  });

  return {
    get pool() {
      if (!opened) throw new Error('the read database is set up in beforeAll');
      return opened;
    },
    connectionString: url.toString(),
  };
}
