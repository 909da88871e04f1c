/**
 * The plans of the STAC item search (docs/stac.md shows them): seeds a scratch database with the
 * portal-objects read model and N synthetic items (1° scenes clustered around 200 centres, ten years
 * of datetimes, 20 collections), then runs EXPLAIN ANALYZE on the exact SQL `searchItems` writes for
 * each query shape. Drops the database afterwards.
 * Usage: N=200000 npx tsx scripts/stac-explain.ts [title filter, e.g. sortby]
 */
import pg from 'pg';
import type { Pool } from '@portal/platform';
import { bboxGeometry } from '../apps/api/src/stac/bbox.js';
import { searchItems } from '../apps/api/src/stac/item-query.js';
import type { ItemSearch } from '../apps/api/src/stac/item-search-request.js';
import { parseFreeText } from '../apps/api/src/stac/free-text-request.js';
import { freeTextCondition } from '../apps/api/src/stac/free-text-sql.js';
import type { ItemCondition } from '../apps/api/src/stac/item-query.js';
import { itemSort } from '../apps/api/src/stac/item-sort.js';
import { parseSortbyText } from '../apps/api/src/stac/sort-request.js';
import { createScratchDatabase } from '../bench/support/scratch-database.js';
import { useTestServiceDefaults } from '../bench/support/services.js';
import { collectionId, seedStacItems } from './stac-explain-seed.js';

const N = Number(process.env.N ?? 200_000);

/** The statement `searchItems` sends (its last one; any before it, the time bounds, run for real). */
async function statementOf(
  db: pg.Client,
  search: ItemSearch,
  extra: readonly ItemCondition[],
): Promise<{ text: string; values: unknown[] }> {
  let statement = { text: '', values: [] as unknown[] };
  const capture = {
    query: (text: string, values: unknown[]) => {
      statement = { text, values };
      return db.query(text, values);
    },
  };
  await searchItems(capture as unknown as Pool, search, ['public'], extra);
  return statement;
}

const sorted = (sortby: string) => itemSort(parseSortbyText(sortby));

const text = (q: string) => [freeTextCondition(parseFreeText(q))];

function shapes(box: [number, number, number, number]): [string, ItemSearch, ItemCondition[]?][] {
  const none: ItemSearch = {
    area: null,
    interval: null,
    ids: null,
    collections: null,
    limit: 100,
    sort: itemSort(null),
    cursor: null,
  };
  const year = { start: '2020-01-01T00:00:00.000Z', end: '2020-12-31T23:59:59.000Z' };
  const midTime = '2020-06-01T00:00:00.000000Z';
  return [
    ['all items, first page', none],
    ['one collection', { ...none, collections: [collectionId(3)] }],
    ['two collections', { ...none, collections: [collectionId(3), collectionId(4)] }],
    ['bbox 5°×5° + one year', { ...none, area: bboxGeometry(box), interval: year }],
    ['bbox 5°×5° alone', { ...none, area: bboxGeometry(box) }],
    ['whole-world bbox', { ...none, area: bboxGeometry([-180, -90, 180, 90]) }],
    ['one year alone', { ...none, interval: year }],
    [
      'one collection + one year, a later page',
      {
        ...none,
        collections: [collectionId(3)],
        interval: year,
        cursor: { keys: [midTime, collectionId(0)], direction: 'next' },
      },
    ],
    ['sortby +datetime, first page', { ...none, sort: sorted('+datetime') }],
    [
      'sortby +datetime, a later page',
      { ...none, sort: sorted('+datetime'), cursor: { keys: [midTime, collectionId(0)], direction: 'next' } },
    ],
    [
      'sortby +datetime, one collection, a later page',
      {
        ...none,
        collections: [collectionId(3)],
        sort: sorted('+datetime'),
        cursor: { keys: [midTime, collectionId(0)], direction: 'next' },
      },
    ],
    ['sortby +datetime, one year', { ...none, interval: year, sort: sorted('+datetime') }],
    ['sortby -end_datetime', { ...none, sort: sorted('-end_datetime') }],
    [
      'sortby -end_datetime, one collection + one year',
      { ...none, collections: [collectionId(3)], interval: year, sort: sorted('-end_datetime') },
    ],
    [
      'sortby -datetime,+title (mixed directions), a later page',
      {
        ...none,
        sort: sorted('-datetime,+title'),
        cursor: { keys: [midTime, 'i5', collectionId(0)], direction: 'next' },
      },
    ],
    ['sortby +created', { ...none, sort: sorted('+created') }],
    [
      'sortby -updated, one collection',
      { ...none, collections: [collectionId(3)], sort: sorted('-updated') },
    ],
    ['sortby +title', { ...none, sort: sorted('+title') }],
    ['sortby -id', { ...none, sort: sorted('-id') }],
    ['sortby +collection', { ...none, sort: sorted('+collection') }],
    ['sortby -properties.eo:cloud_cover', { ...none, sort: sorted('-properties.eo:cloud_cover') }],
    [
      'sortby -properties.eo:cloud_cover, one collection',
      { ...none, collections: [collectionId(3)], sort: sorted('-properties.eo:cloud_cover') },
    ],
    ['sortby +properties.eo:cloud_cover', { ...none, sort: sorted('+properties.eo:cloud_cover') }],
    [
      'sortby -properties.eo:cloud_cover, a later page',
      {
        ...none,
        sort: sorted('-properties.eo:cloud_cover'),
        cursor: { keys: ['50', 'ffffffff-ffff-4fff-8fff-ffffffffffff'], direction: 'next' },
      },
    ],
    [
      'sortby +properties.eo:cloud_cover, a later page',
      {
        ...none,
        sort: sorted('+properties.eo:cloud_cover'),
        cursor: { keys: ['50', 'ffffffff-ffff-4fff-8fff-ffffffffffff'], direction: 'next' },
      },
    ],
    [
      'sortby -properties.eo:cloud_cover, one year',
      { ...none, interval: year, sort: sorted('-properties.eo:cloud_cover') },
    ],
    ['sortby +properties.platform (no index)', { ...none, sort: sorted('+properties.platform') }],
    ['q a common word (1 item in 8)', none, text('echo')],
    ['q a rare word (1 item in 1,024)', none, text('zulu')],
    ['q a phrase in keywords (1 item in 8)', none, text('"sea ice"')],
    [
      'q a rare word OR a common one, one collection',
      { ...none, collections: [collectionId(3)] },
      text('zulu OR echo'),
    ],
    ['q a common word AND NOT a rare one, one year', { ...none, interval: year }, text('+echo -zulu')],
  ];
}

useTestServiceDefaults();
const database = await createScratchDatabase('bench_stac_explain');
const db = new pg.Client({ connectionString: database.url });
try {
  await db.connect();
  await seedStacItems(db, N);
  // A 5°×5° box around a cluster of scenes.
  const corner = await db.query<{ x: number; y: number }>(
    `SELECT ST_XMin(footprint) AS x, ST_YMin(footprint) AS y FROM read.portal_objects WHERE kind = 'item' LIMIT 1`,
  );
  const { x = 0, y = 0 } = corner.rows[0] ?? {};
  const box: [number, number, number, number] = [
    Math.max(-180, x - 2.5),
    Math.max(-90, y - 2.5),
    Math.min(180, x + 2.5),
    Math.min(90, y + 2.5),
  ];
  console.log(`${N} items; box ${box.map((value) => value.toFixed(2)).join(',')}`);
  const only = process.argv[2];
  for (const [title, search, extra = []] of shapes(box)) {
    if (only !== undefined && !title.includes(only)) continue;
    const { text, values } = await statementOf(db, search, extra);
    const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${text}`, values);
    console.log(`\n### ${title}\n`);
    console.log(plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
  }
} finally {
  await db.end();
  await database.drop();
}
