/**
 * The plans of the STAC aggregations (docs/stac.md, "Aggregation"): seeds a scratch database with N
 * synthetic items (`stac-explain-seed.ts`) and runs EXPLAIN ANALYZE on the exact statement each
 * aggregation sends, for a few search shapes. Drops the database afterwards.
 * Usage: N=5000 npx tsx scripts/stac-aggregation-explain.ts [title filter, e.g. geohash]
 * With `EXPLAIN_DATABASE=<url>` it reads a database kept by `bench/stac.ts --keep` instead (its
 * largest collection stands for "one collection"; nothing is seeded or dropped).
 */
import pg from 'pg';
import { STAC_AGGREGATION_NAMES } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import type { AggregationRequest } from '../apps/api/src/stac/aggregation-request.js';
import { computeAggregation } from '../apps/api/src/stac/aggregation-sql.js';
import { bboxGeometry } from '../apps/api/src/stac/bbox.js';
import { parseFreeText } from '../apps/api/src/stac/free-text-request.js';
import { freeTextCondition } from '../apps/api/src/stac/free-text-sql.js';
import type { ItemCondition } from '../apps/api/src/stac/item-query.js';
import type { ItemMatch } from '../apps/api/src/stac/item-search-request.js';
import { createScratchDatabase } from '../bench/support/scratch-database.js';
import { useTestServiceDefaults } from '../bench/support/services.js';
import { collectionId, seedStacItems } from './stac-explain-seed.js';

const N = Number(process.env.N ?? 5_000);

const request: AggregationRequest = {
  names: STAC_AGGREGATION_NAMES,
  interval: 'month',
  geohashPrecision: 3,
  geotilePrecision: 6,
};

/** The statement one aggregation sends, captured as it runs. */
async function statementOf(
  db: pg.Client,
  name: (typeof STAC_AGGREGATION_NAMES)[number],
  match: ItemMatch,
  extra: readonly ItemCondition[],
): Promise<{ text: string; values: unknown[] }> {
  let statement = { text: '', values: [] as unknown[] };
  const capture = {
    query: (text: string, values: unknown[]) => {
      statement = { text, values };
      return db.query(text, values);
    },
  };
  await computeAggregation(capture as unknown as Pool, name, {
    match,
    principals: ['public'],
    extra,
    request,
  });
  return statement;
}

const all: ItemMatch = { area: null, interval: null, ids: null, collections: null };
const year = { start: '2020-01-01T00:00:00.000Z', end: '2020-12-31T23:59:59.000Z' };
const shapes: [string, ItemMatch, ItemCondition[]?][] = [
  ['all items', all],
  ['one collection', { ...all, collections: [collectionId(3)] }],
  ['bbox 20°×20° + one year', { ...all, area: bboxGeometry([0, 0, 20, 20]), interval: year }],
  ['q a common word', all, [freeTextCondition(parseFreeText('echo'))]],
];

useTestServiceDefaults();
const kept = process.env.EXPLAIN_DATABASE;
const database = kept === undefined ? await createScratchDatabase('bench_stac_aggregation_explain') : null;
const db = new pg.Client({ connectionString: kept ?? database?.url });
try {
  await db.connect();
  if (database !== null) await seedStacItems(db, N);
  else {
    const largest = await db.query<{ parent_id: string; items: string }>(
      `SELECT parent_id, count(*) AS items FROM read.portal_objects
        WHERE kind = 'item' AND deleted_at IS NULL GROUP BY parent_id ORDER BY 2 DESC LIMIT 1`,
    );
    const row = largest.rows[0];
    if (row === undefined) throw new Error('the database holds no items');
    shapes[1] = ['one collection', { ...all, collections: [row.parent_id] }];
    console.log(`kept database; its largest collection holds ${row.items} items`);
  }
  console.log(`${database === null ? 'every' : N} items`);
  const only = process.argv[2];
  for (const [shape, match, extra = []] of shapes) {
    for (const name of STAC_AGGREGATION_NAMES) {
      const title = `${name}, ${shape}`;
      if (only !== undefined && !title.includes(only)) continue;
      const { text, values } = await statementOf(db, name, match, extra);
      const plan = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`,
        values,
      );
      const lines = plan.rows.map((row) => row['QUERY PLAN']);
      console.log(`\n### ${title}\n`);
      console.log(
        process.env.FULL === undefined
          ? lines.filter((line) => /Scan|Execution|Aggregate|Sort|Buffers/.test(line)).join('\n')
          : lines.join('\n'),
      );
    }
  }
} finally {
  await db.end();
  await database?.drop();
}
