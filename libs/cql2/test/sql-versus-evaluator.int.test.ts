import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cql2ToSql, evaluateCql2, parseCql2Text, printCql2Text } from '../src/index.js';
import type { Cql2Node } from '../src/index.js';
import { makeRows, queryables, recordOf } from './brute-force-fixture.js';
import type { Row } from './brute-force-fixture.js';
import { typedFilter } from './typed-filters.js';

// The SQL translation against brute force: every generated filter runs over a real PostgreSQL+PostGIS
// table and must give, row by row, the evaluator's true/false/unknown — and never a SQL error, whatever
// odd data the rows hold.

const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';
const schema = `cql2_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const rows = makeRows(120);
let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2, application_name: 'cql2-tests' });
  await pool.query('CREATE EXTENSION IF NOT EXISTS postgis').catch((error: unknown) => {
    // Another test file created it at the same moment.
    if (!(error instanceof Error && 'code' in error && (error.code === '23505' || error.code === '42710')))
      throw error;
  });
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(`CREATE TABLE "${schema}".rows (
    id int PRIMARY KEY, n float8, i int, s text, b boolean, t timestamptz, d date,
    g geometry(Geometry, 4326), tags jsonb, start_t timestamptz, end_t timestamptz, props jsonb NOT NULL)`);
  for (const row of rows) {
    await pool.query(
      `INSERT INTO "${schema}".rows VALUES ($1, $2, $3, $4, $5, $6, $7,
        ST_SetSRID(ST_GeomFromGeoJSON($8::text), 4326), $9::jsonb, $10, $11, $12::jsonb)`,
      [
        row.id,
        row.n,
        row.i,
        row.s,
        row.b,
        row.t,
        row.d,
        row.g ? JSON.stringify(row.g) : null,
        row.tags === null ? null : JSON.stringify(row.tags),
        row.startT,
        row.endT,
        JSON.stringify(row.props),
      ],
    );
  }
});

afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

async function sqlTruths(filter: Cql2Node): Promise<(boolean | null)[]> {
  const params: unknown[] = [];
  const where = cql2ToSql(filter, queryables, params);
  const result = await pool.query<{ v: boolean | null }>(
    `SELECT (${where}) AS v FROM "${schema}".rows r ORDER BY id`,
    params,
  );
  return result.rows.map((row) => row.v);
}

const memoryTruths = (filter: Cql2Node): (boolean | null)[] =>
  rows.map((row: Row) => evaluateCql2(filter, queryables, recordOf(row)));

describe('cql2ToSql agrees with evaluateCql2 on every row', () => {
  it.each([
    'n > 1 AND s IS NOT NULL',
    'x > 1',
    "x = 'alpha' OR y = 'alpha'",
    'x = y',
    "x > TIMESTAMP('2020-01-01T00:00:00Z')",
    "y = DATE('2020-06-15')",
    "t >= DATE('2020-01-01')",
    'x + 1 > 2 OR x * y <> 0 OR x / y < 1 OR x % 2 = 1 OR x DIV 2 = 0 OR x ^ y > 1',
    "CASEI(s) = CASEI('alpha') OR ACCENTI(CASEI(s)) = 'ete'",
    "CASEI(s) LIKE CASEI('STR%') OR s LIKE 'a\\%b'",
    'n BETWEEN i AND 10 OR x BETWEEN 0 AND 3',
    'x IN (1, 2.5, 0.1) OR y NOT IN (3)',
    'S_INTERSECTS(g, BBOX(0, 0, 2, 2)) OR S_WITHIN(g, POLYGON((0 0, 3 0, 3 3, 0 3, 0 0)))',
    "T_INTERSECTS(datetime, INTERVAL('2020-01-01', '2020-06-15T08:00:00Z'))",
    "T_DURING(datetime, INTERVAL('..', '2021-01-01')) OR T_AFTER(x, DATE('2020-01-01'))",
    "A_CONTAINS(tags, ('a')) OR A_OVERLAPS(x, ('a', 1)) OR A_EQUALS(tags, ()) OR A_CONTAINEDBY(tags, ('a', 'b', 1))",
    'x IS NULL OR y IS NOT NULL',
    // Two open ends are the same end (fast-check found the evaluator calling them unequal).
    "T_FINISHES(INTERVAL('2020-01-01', '..'), INTERVAL('1999-12-31T23:59:59.999999Z', '..'))",
    "T_EQUALS(INTERVAL('..', datetime), INTERVAL('..', datetime))",
  ])('%s', async (text) => {
    const filter = parseCql2Text(text);
    expect(await sqlTruths(filter)).toEqual(memoryTruths(filter));
  });

  it('on random filters, including rows with odd data, without a SQL error', async () => {
    await fc.assert(
      fc.asyncProperty(typedFilter, async (filter) => {
        const expected = memoryTruths(filter);
        const actual = await sqlTruths(filter);
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          const differing = rows.filter((_, index) => actual[index] !== expected[index]).slice(0, 3);
          expect({
            filter: printCql2Text(filter),
            differing,
            actual: differing.map((r) => actual[r.id]),
          }).toEqual({
            filter: printCql2Text(filter),
            differing,
            actual: differing.map((r) => expected[r.id]),
          });
        }
      }),
      { numRuns: 400 },
    );
  });
});
