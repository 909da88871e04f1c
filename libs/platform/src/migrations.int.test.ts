import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from './database.js';
import { runMigrations, type Migration } from './migrations.js';

let pool: Pool;
const schemas: string[] = [];

beforeAll(() => {
  pool = createPool({
    connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test',
    applicationName: 'migrations-test',
    max: 6,
  });
});

afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

function uniqueSchema(): string {
  const schema = `mig_${randomBytes(4).toString('hex')}`;
  schemas.push(schema);
  return schema;
}

interface Steps {
  readonly first: Migration;
  readonly second: Migration;
  /** Every migration, listed out of order on purpose: the runner orders them by number. */
  readonly all: Migration[];
}

/** Migrations that fail or double up when applied twice or out of order: each adds to `steps`. */
function steps(schema: string): Steps {
  const first = { number: 1, name: 'first', sql: `CREATE TABLE "${schema}".steps (number integer NOT NULL)` };
  const second = { number: 2, name: 'second', sql: `INSERT INTO "${schema}".steps (number) VALUES (2)` };
  const third = {
    number: 3,
    name: 'third, slow',
    // Held open a moment, so a second runner without the lock would find it not yet recorded.
    sql: `SELECT pg_sleep(0.3); INSERT INTO "${schema}".steps (number) VALUES (3)`,
  };
  return { first, second, all: [second, first, third] };
}

async function stepsOf(schema: string): Promise<number[]> {
  const result = await pool.query<{ number: number }>(`SELECT number FROM "${schema}".steps`);
  return result.rows.map((row) => row.number);
}

async function recorded(schema: string): Promise<number[]> {
  const result = await pool.query<{ number: number }>(
    `SELECT number FROM "${schema}".schema_migrations ORDER BY number`,
  );
  return result.rows.map((row) => row.number);
}

describe('runMigrations', () => {
  it('applies each migration once, in the order of their numbers', async () => {
    const schema = uniqueSchema();

    expect(await runMigrations(pool, { schema, migrations: steps(schema).all })).toEqual([1, 2, 3]);
    expect(await runMigrations(pool, { schema, migrations: steps(schema).all })).toEqual([]);

    expect(await stepsOf(schema)).toEqual([2, 3]);
    expect(await recorded(schema)).toEqual([1, 2, 3]);
  });

  it('applies only the migrations added since the last run', async () => {
    const schema = uniqueSchema();
    const { first, second } = steps(schema);
    await runMigrations(pool, { schema, migrations: [first] });

    expect(await runMigrations(pool, { schema, migrations: [first, second] })).toEqual([2]);
    expect(await stepsOf(schema)).toEqual([2]);
  });

  it('applies each migration once when two processes run them together', async () => {
    const schema = uniqueSchema();
    const other = createPool({
      connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test',
      applicationName: 'migrations-test-other',
      max: 2,
    });
    try {
      const runs = await Promise.all([
        runMigrations(pool, { schema, migrations: steps(schema).all }),
        runMigrations(other, { schema, migrations: steps(schema).all }),
      ]);

      expect(runs.flat().sort()).toEqual([1, 2, 3]);
      expect((await stepsOf(schema)).sort()).toEqual([2, 3]);
      expect(await recorded(schema)).toEqual([1, 2, 3]);
    } finally {
      await other.end();
    }
  });

  it('rolls a failing migration back alone and leaves it to apply next time', async () => {
    const schema = uniqueSchema();
    const { first, second } = steps(schema);
    const failing: Migration = {
      number: 2,
      name: 'failing',
      sql: `INSERT INTO "${schema}".steps (number) VALUES (2); SELECT 1 / 0`,
    };

    await expect(runMigrations(pool, { schema, migrations: [first, failing] })).rejects.toThrow(
      /division by zero/,
    );
    expect(await recorded(schema)).toEqual([1]);
    expect(await stepsOf(schema)).toEqual([]);

    expect(await runMigrations(pool, { schema, migrations: [first, second] })).toEqual([2]);
    expect(await stepsOf(schema)).toEqual([2]);
  });

  it('refuses two migrations of the same number', async () => {
    const schema = uniqueSchema();
    const { first } = steps(schema);

    await expect(
      runMigrations(pool, { schema, migrations: [first, { ...first, name: 'again' }] }),
    ).rejects.toThrow('two migrations are numbered 1');
  });
});
