import type { Pool } from '@portal/platform';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PendingListMerger } from '../src/pending-lists.js';
import { dropSchemas, ensureTestDatabase, openTestPool, uniqueSchema } from './support/test-database.js';
import { captureLogger } from './support/test-logger.js';

let pool: Pool;
const schemas: string[] = [];
let schema: string;

/**
 * A table with two GIN indexes, one with a pending list (PostgreSQL's default) and one without.
 * Autovacuum is off for it: its vacuum or analyze would merge the list under the test.
 */
async function createTaggedTable(): Promise<void> {
  schema = uniqueSchema('pending_lists');
  schemas.push(schema);
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(
    `CREATE TABLE ${schema}.tagged (id int PRIMARY KEY, tags int[] NOT NULL) WITH (autovacuum_enabled = off)`,
  );
  await pool.query(`CREATE INDEX tagged_tags ON ${schema}.tagged USING gin (tags)`);
  await pool.query(
    `CREATE INDEX tagged_tags_direct ON ${schema}.tagged USING gin (tags) WITH (fastupdate = off)`,
  );
}

/** `count` rows, in one statement: their entries go to the pending list (far below its 4 MB limit). */
async function insertRows(from: number, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO ${schema}.tagged
     SELECT i, ARRAY[i % 97, i % 89, i % 83, i]
       FROM generate_series($1::int, $1::int + $2::int - 1) AS i`,
    [from, count],
  );
}

beforeAll(async () => {
  await ensureTestDatabase();
  pool = openTestPool('pending-lists', 4);
});

afterAll(async () => {
  await dropSchemas(pool, schemas);
  await pool.end();
});

beforeEach(async () => {
  await createTaggedTable();
});

describe('PendingListMerger', () => {
  it('merges the pending lists of the schema, and finds nothing left the second time', async () => {
    await insertRows(1, 2_000);
    const merger = new PendingListMerger(pool, schema, captureLogger('pending-lists').logger);

    expect(await merger.merge()).toBeGreaterThan(0);
    expect(await merger.merge()).toBe(0);
  });

  it('starts a merge only once the events applied since the last reach the threshold', async () => {
    await insertRows(1, 1_000);
    const merger = new PendingListMerger(pool, schema, captureLogger('pending-lists').logger, 500);

    merger.eventsApplied(499);
    await merger.settled();
    await insertRows(1_001, 1_000);
    merger.eventsApplied(1);
    await merger.settled();
    expect(await merger.merge()).toBe(0);

    await insertRows(2_001, 1_000);
    merger.eventsApplied(499);
    await merger.settled();
    expect(await merger.merge()).toBeGreaterThan(0);
  });

  it('leaves the pending lists of other schemas alone', async () => {
    const other = schema;
    await insertRows(1, 2_000);
    await createTaggedTable();
    const merger = new PendingListMerger(pool, schema, captureLogger('pending-lists').logger);

    expect(await merger.merge()).toBe(0);
    expect(
      await new PendingListMerger(pool, other, captureLogger('pending-lists').logger).merge(),
    ).toBeGreaterThan(0);
  });
});
