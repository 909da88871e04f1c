/**
 * What answering one STAC page costs the API's CPU beside its queries: a page of `--items` items built
 * by the API's own `stacItem` from synthetic rows, then each step express took on it, timed in one
 * process (so the machine's load weighs on every row alike): `JSON.stringify` of the body, its UTF-8
 * Buffer, and the SHA-1 ETag express computed over it until `app.set('etag', false)` (docs/decisions.md,
 * "Validators are revisions, not body hashes"). Beside them, the page answered from the items' stored
 * JSON (docs/stac.md, "Stored item JSON"): the texts joined and the base URL put back, in place of
 * building and serializing, encoded as one Buffer or, as the API sends a page now, in pieces; and, to
 * compare what reading them costs, node-postgres parsing the rows of each way (the item's columns, or
 * one text).
 * Usage: npx tsx bench/stac-page-cost.ts [--items 100] [--rounds 2000]
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  baseUrlFiller,
  stacItem,
  storedStacItemText,
  withBaseUrl,
  type ItemRow,
} from '@portal/read-model-portal-objects';
import { writesOf } from '../apps/api/src/http/send-json.js';
import { featureCollectionParts } from '../apps/api/src/stac/item-collection.js';
import { stacUrls } from '../apps/api/src/stac/stac-links.js';
import { positiveInt, readOptions } from './support/options.js';
import { printJsonLine, printTable } from './support/table.js';

const raw = readOptions('npx tsx bench/stac-page-cost.ts [options]', {
  items: { env: 'BENCH_PAGE_ITEMS', default: '100', help: 'items on the page (the search limit)' },
  rounds: { env: 'BENCH_PAGE_ROUNDS', default: '2000', help: 'times each step is repeated' },
});
const options = { items: positiveInt('items', raw.items), rounds: positiveInt('rounds', raw.rounds) };

const baseUrl = 'http://localhost:3000';
const collectionId = randomUUID();

/** A scene as the bench's archive holds it: a tilted footprint, a time, cover and platform, two assets. */
function sceneRow(index: number): ItemRow {
  const west = -10 + (index % 50) / 3;
  const south = 35 + (index % 30) / 4;
  const at = new Date(Date.UTC(2020, 0, 1 + index));
  return {
    id: randomUUID(),
    title: `S2A scene ${index} over the test area`,
    description: null,
    parent_id: collectionId,
    stac_id: null,
    parent_kind: 'collection',
    parent_stac_id: null,
    footprint_bbox: [west, south, west + 1.1, south + 1.05],
    status: 'ready',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [west, south + 0.05],
          [west + 1, south],
          [west + 1.1, south + 1],
          [west + 0.1, south + 1.05],
          [west, south + 0.05],
        ],
      ],
    },
    bbox: null,
    datetime: at,
    start_datetime: null,
    end_datetime: null,
    properties: { 'eo:cloud_cover': index % 101, platform: 'sentinel-2a', 'proj:epsg': 32632 },
    href_assets: [
      {
        id: randomUUID(),
        key: 'visual',
        asset: {
          href: `https://data.example.org/${index}/visual.tif`,
          type: 'image/tiff',
          roles: ['visual'],
        },
      },
      {
        id: randomUUID(),
        key: 'thumbnail',
        asset: {
          href: `https://data.example.org/${index}/thumb.png`,
          type: 'image/png',
          roles: ['thumbnail'],
        },
      },
    ],
    links: [],
    version: '3',
    tags: [],
    created_at: at,
    updated_at: at,
  };
}

/**
 * Milliseconds of this process's CPU (user and system: mapping and zeroing the memory of a large string
 * or buffer is system time) per call of `step`, over the rounds.
 */
function timed(step: () => unknown): number {
  for (let round = 0; round < Math.min(100, options.rounds); round += 1) step();
  const began = process.cpuUsage();
  for (let round = 0; round < options.rounds; round += 1) step();
  const spent = process.cpuUsage(began);
  return (spent.user + spent.system) / 1000 / options.rounds;
}

const rows = Array.from({ length: options.items }, (_, index) => sceneRow(index));
const urls = stacUrls(baseUrl);
const build = () => ({
  type: 'FeatureCollection',
  features: rows.map((row) => stacItem(row, [], urls, baseUrl)),
  links: [],
  numberReturned: rows.length,
});
const page = build();
const body = JSON.stringify(page);
const buffer = Buffer.from(body, 'utf8');
const texts = rows.map((row) => storedStacItemText(row, []));
const joined = () =>
  withBaseUrl(
    `{"type":"FeatureCollection","features":[${texts.join(',')}],"links":[],"numberReturned":${texts.length}}`,
    baseUrl,
  );
if (joined() !== body) throw new Error('the page joined from stored texts differs from the page built');
/** The page as the API sends it: the base put in each text, the texts written in pieces (send-json.ts). */
const fill = baseUrlFiller(baseUrl);
const pieces = () => writesOf(featureCollectionParts(texts.map(fill), '[]', texts.length));
if (pieces().join('') !== body) throw new Error('the page in pieces differs from the page built');

/**
 * What node-postgres does with a row's text fields: the item's columns (jsonb, arrays, timestamps)
 * parsed as the API's query gets them, against one text column per item.
 */
const columnTexts = rows.map((row) => ({
  geometry: JSON.stringify(row.geometry),
  properties: JSON.stringify(row.properties),
  hrefAssets: JSON.stringify(row.href_assets),
  links: JSON.stringify(row.links),
  stamps: [row.datetime, row.created_at, row.updated_at].map((at) => at?.toISOString() ?? ''),
}));
const parseColumns = () =>
  columnTexts.map((columns) => ({
    geometry: JSON.parse(columns.geometry) as unknown,
    properties: JSON.parse(columns.properties) as unknown,
    hrefAssets: JSON.parse(columns.hrefAssets) as unknown,
    links: JSON.parse(columns.links) as unknown,
    stamps: columns.stamps.map((text) => new Date(text)),
  }));
const costs = {
  build: timed(build),
  stringify: timed(() => JSON.stringify(page)),
  buffer: timed(() => Buffer.from(body, 'utf8')),
  // What the `etag` package express used does for a weak ETag: SHA-1 of the bytes, base64.
  etag: timed(() => createHash('sha1').update(buffer).digest('base64').slice(0, 27)),
};
const stored = {
  'joined stored texts + base URL': timed(joined),
  'the same, then one Buffer (sent so until 2026-12-01)': timed(() => Buffer.from(joined())),
  'base URL per text, in pieces, each encoded (as sent)': timed(() =>
    pieces().map((piece) => Buffer.from(piece)),
  ),
  'parse the item columns (built path)': timed(parseColumns),
};
printTable(
  `One STAC page of ${options.items} items (${buffer.length.toLocaleString('en-US')} bytes), ms of CPU per step, ${options.rounds} rounds each`,
  ['step', 'ms', 'share of the four'],
  Object.entries(costs).map(([step, ms]) => {
    const total = costs.build + costs.stringify + costs.buffer + costs.etag;
    return [step, ms, `${((100 * ms) / total).toFixed(0)}%`];
  }),
);
printTable(
  'The same page from the stored texts: what replaces build + stringify, and the row parsing it saves',
  ['step', 'ms', 'vs build + stringify'],
  Object.entries(stored).map(([step, ms]) => [
    step,
    ms,
    `${((100 * ms) / (costs.build + costs.stringify)).toFixed(0)}%`,
  ]),
);
printJsonLine('stac-page-cost', { options, bytes: buffer.length, costs, stored });
