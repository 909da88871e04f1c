/**
 * The plans of property-sorted item pages (docs/stac.md, "Sort") on a database kept by
 * `bench/stac.ts --keep`: the first page, a page halfway through and the page after the last item with
 * the property, both ways, all items and one collection, read by the exact statement `searchItems` sends.
 * Usage: EXPLAIN_DATABASE=<url> npx tsx scripts/stac-sort-explain.ts [sortby, default eo:cloud_cover]
 */
import pg from 'pg';
import type { Pool } from '@portal/platform';
import { searchItems } from '../apps/api/src/stac/item-query.js';
import type { ItemSearch } from '../apps/api/src/stac/item-search-request.js';
import { itemSort } from '../apps/api/src/stac/item-sort.js';
import { parseSortbyText } from '../apps/api/src/stac/sort-request.js';

const url = process.env.EXPLAIN_DATABASE;
if (url === undefined) throw new Error('set EXPLAIN_DATABASE to a kept bench database');
const field = process.argv[2] ?? 'eo:cloud_cover';
const db = new pg.Client({ connectionString: url });

/** Runs the search once to capture its statement, then EXPLAIN ANALYZE of it. */
async function explain(title: string, search: ItemSearch): Promise<void> {
  let statement = { text: '', values: [] as unknown[] };
  const capture = {
    query: (text: string, values: unknown[]) => {
      statement = { text, values };
      return db.query(text, values);
    },
  };
  await searchItems(capture as unknown as Pool, search, ['public']);
  const plan = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`,
    statement.values,
  );
  const lines = plan.rows.map((row) => row['QUERY PLAN']);
  console.log(`\n### ${title}\n`);
  console.log(
    process.env.FULL === undefined
      ? lines.filter((line) => /Scan|Execution|Cond|Removed|Buffers|Sort/.test(line)).join('\n')
      : lines.join('\n'),
  );
}

try {
  await db.connect();
  const largest = await db.query<{ parent_id: string }>(
    `SELECT parent_id FROM read.portal_objects WHERE kind = 'item' AND deleted_at IS NULL
      GROUP BY parent_id ORDER BY count(*) DESC LIMIT 1`,
  );
  const collection = largest.rows[0]?.parent_id ?? null;
  const key = `CASE WHEN jsonb_typeof(properties -> '${field.replaceAll("'", "''")}') IN ('string', 'number', 'boolean')
                    THEN properties -> '${field.replaceAll("'", "''")}' END`;
  for (const scope of [null, collection]) {
    const where = `kind = 'item' AND deleted_at IS NULL${scope === null ? '' : ` AND parent_id = '${scope}'`}`;
    // The middle row of the scope in ascending order, and the last row with a value.
    const middle = await db.query<{ key: string | null; id: string }>(
      `SELECT (${key})::text AS key, id FROM read.portal_objects WHERE ${where}
        ORDER BY ${key} ASC, id ASC OFFSET (SELECT count(*) / 2 FROM read.portal_objects WHERE ${where}) LIMIT 1`,
    );
    const last = await db.query<{ key: string | null; id: string }>(
      `SELECT (${key})::text AS key, id FROM read.portal_objects WHERE ${where} AND (${key}) IS NOT NULL
        ORDER BY ${key} DESC, id DESC LIMIT 1`,
    );
    const label = scope === null ? 'all items' : 'one collection';
    for (const direction of ['asc', 'desc'] as const) {
      const sort = itemSort(parseSortbyText(`${direction === 'asc' ? '+' : '-'}properties.${field}`));
      const search: ItemSearch = {
        area: null,
        interval: null,
        ids: null,
        collections: scope === null ? null : [scope],
        limit: 100,
        sort,
        cursor: null,
      };
      await explain(`${sort.signature}, ${label}, first page`, search);
      for (const [at, row] of [
        ['halfway', middle.rows[0]],
        ['after the last value', last.rows[0]],
      ] as const) {
        if (row === undefined) continue;
        await explain(`${sort.signature}, ${label}, the page ${at}`, {
          ...search,
          cursor: { keys: [row.key, row.id], direction: 'next' },
        });
      }
    }
  }
} finally {
  await db.end();
}
