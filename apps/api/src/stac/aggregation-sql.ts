import {
  STAC_MAX_BUCKETS,
  type StacAggregation,
  type StacAggregationBucket,
  type StacAggregationName,
  type StacDatetimeInterval,
} from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { QueryParams } from '@portal/read-model-core';
import type { Principals } from '@portal/read-model-portal-objects';
import type { AggregationRequest } from './aggregation-request.js';
import { propertySql } from './item-filter.js';
import { matchingItemsSql, type ItemCondition } from './item-query.js';
import type { ItemMatch } from './item-search-request.js';
import { visibleCollectionSql } from './visible-collection-sql.js';
import { itemEnd, itemStart } from './item-time-sql.js';

/**
 * One SQL statement per aggregation over the search's own `FROM … WHERE …` (`matchingItemsSql`: the same
 * parameters, the same visibility), every value bound as a parameter (docs/stac.md, "Aggregation").
 */

/** What every aggregation reads: the matching items. */
interface Scope {
  readonly match: ItemMatch;
  readonly principals: Principals;
  readonly extra: readonly ItemCondition[];
  readonly request: AggregationRequest;
}

/** `FROM … WHERE …` of the matches. */
const matchesSql = (scope: Scope, params: QueryParams) =>
  matchingItemsSql(scope.match, scope.principals, params, scope.extra);

async function singleValue(pool: Pool, scope: Scope, select: string): Promise<number | Date | string | null> {
  const params = new QueryParams();
  const from = matchesSql(scope, params);
  const result = await pool.query<{ value: number | Date | string | null }>(
    `SELECT ${select} AS value ${from}`,
    params.values,
  );
  return result.rows[0]?.value ?? null;
}

/**
 * A frequency distribution: `inner` is the value an item is bucketed by (over `o` and its visible parent
 * `p`), `key` the bucket of that value (over `m.v`); a NULL bucket is no bucket (the item is overflow).
 * The grouping set `()` adds the count of every match, so the overflow comes from the same statement.
 */
interface Distribution {
  readonly inner: (params: QueryParams) => string;
  readonly key?: (params: QueryParams) => string;
  /** `frequency`: most items first, then by key (bytewise); `key`: by key (times, ranges). */
  readonly order: 'frequency' | 'key';
  readonly bucket: (key: unknown, frequency: number) => StacAggregationBucket;
  /** The buckets to answer even when empty (fixed ranges), given the ones found. */
  readonly complete?: (found: readonly StacAggregationBucket[]) => StacAggregationBucket[];
}

interface BucketRow {
  readonly is_total: boolean;
  readonly key: unknown;
  readonly frequency: string;
}

async function distribution(
  pool: Pool,
  scope: Scope,
  spec: Distribution,
): Promise<{ buckets: StacAggregationBucket[]; overflow: number }> {
  const params = new QueryParams();
  const from = matchesSql(scope, params);
  const inner = spec.inner(params);
  const key = spec.key?.(params) ?? 'm.v';
  const order = spec.order === 'frequency' ? 'count(*) DESC, k.key::text COLLATE "C"' : 'k.key';
  const limit = params.add(STAC_MAX_BUCKETS + 2, 'int');
  const { rows } = await pool.query<BucketRow>(
    `SELECT GROUPING(k.key) = 1 AS is_total, k.key, count(*)::bigint AS frequency
       FROM (SELECT ${key} AS key FROM (SELECT ${inner} AS v ${from}) m) k
      GROUP BY GROUPING SETS ((k.key), ())
      ORDER BY GROUPING(k.key) DESC, k.key IS NULL DESC, ${order}
      LIMIT ${limit}`,
    params.values,
  );
  const total = Number(rows.find((row) => row.is_total)?.frequency ?? 0);
  const found = rows
    .filter((row) => !row.is_total && row.key !== null)
    .slice(0, STAC_MAX_BUCKETS)
    .map((row) => spec.bucket(row.key, Number(row.frequency)));
  const buckets = spec.complete?.(found) ?? found;
  const counted = buckets.reduce((sum, bucket) => sum + bucket.frequency, 0);
  return { buckets, overflow: total - counted };
}

const stringBucket = (key: unknown, frequency: number): StacAggregationBucket => ({
  key: String(key),
  data_type: 'string',
  frequency,
});

/** The start of the bucket after the one starting at `start` (UTC). */
export function nextIntervalStart(start: Date, interval: StacDatetimeInterval): Date {
  const next = new Date(start.getTime());
  switch (interval) {
    case 'year':
      next.setUTCFullYear(next.getUTCFullYear() + 1);
      break;
    case 'quarter':
      next.setUTCMonth(next.getUTCMonth() + 3);
      break;
    case 'month':
      next.setUTCMonth(next.getUTCMonth() + 1);
      break;
    case 'week':
      next.setUTCDate(next.getUTCDate() + 7);
      break;
    case 'day':
      next.setUTCDate(next.getUTCDate() + 1);
      break;
    case 'hour':
      next.setUTCHours(next.getUTCHours() + 1);
      break;
    case 'minute':
      next.setUTCMinutes(next.getUTCMinutes() + 1);
      break;
    case 'second':
      next.setUTCSeconds(next.getUTCSeconds() + 1);
      break;
  }
  return next;
}

/** `cloud_cover_frequency`'s ranges: below the first edge, between edges, from the last edge on. */
export const CLOUD_COVER_EDGES = [10, 20, 30, 40, 50, 60, 70, 80, 90] as const;

function rangeBucket(index: number, frequency: number): StacAggregationBucket {
  const from = index === 0 ? undefined : CLOUD_COVER_EDGES[index - 1];
  const to = CLOUD_COVER_EDGES[index];
  return {
    key: `${from ?? '*'}-${to ?? '*'}`,
    data_type: 'numeric',
    frequency,
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
}

/** The web-mercator latitude limit: a tile grid is square, so it ends where y reaches ±π. */
const MERCATOR_LIMIT = 85.0511287798066;

/** The aggregations that put items in buckets. */
type DistributionName = Exclude<StacAggregationName, 'total_count' | 'datetime_min' | 'datetime_max'>;

function distributions(request: AggregationRequest): Record<DistributionName, Distribution> {
  const centroid = () => 'ST_Centroid(o.footprint)';
  return {
    collection_frequency: {
      inner: () => visibleCollectionSql,
      order: 'frequency',
      bucket: stringBucket,
    },
    datetime_frequency: {
      inner: (params) => `date_trunc(${params.add(request.interval, 'text')}, ${itemStart('o')}, 'UTC')`,
      order: 'key',
      bucket: (key, frequency) => {
        const start = key as Date;
        return {
          key: start.toISOString(),
          data_type: 'datetime',
          frequency,
          from: start.toISOString(),
          to: nextIntervalStart(start, request.interval).toISOString(),
        };
      },
    },
    cloud_cover_frequency: {
      // jsonb numbers as numeric: any JSON number converts, where a float8 cast could overflow.
      inner: (params) => {
        const value = propertySql('eo:cloud_cover');
        return `width_bucket(CASE WHEN jsonb_typeof(${value}) = 'number' THEN (${value})::numeric END,
                             ${params.add(CLOUD_COVER_EDGES, 'numeric[]')})`;
      },
      order: 'key',
      bucket: (key, frequency) => rangeBucket(key as number, frequency),
      complete: (found) =>
        Array.from(
          { length: CLOUD_COVER_EDGES.length + 1 },
          (_, index) =>
            found.find((bucket) => bucket.key === rangeBucket(index, 0).key) ?? rangeBucket(index, 0),
        ),
    },
    centroid_geohash_grid_frequency: {
      inner: centroid,
      key: (params) => `ST_GeoHash(m.v, ${params.add(request.geohashPrecision, 'int')})`,
      order: 'frequency',
      bucket: stringBucket,
    },
    centroid_geotile_grid_frequency: {
      inner: centroid,
      // z/x/y of the tile holding the centroid: x from the longitude, y from the mercator latitude
      // (clamped to the grid), both clamped to 0..2^z − 1 so ±180° and the poles fall in the edge tiles.
      key: (params) => {
        const zoom = params.add(request.geotilePrecision, 'int');
        const tiles = params.add(2 ** request.geotilePrecision, 'float8');
        const limit = params.add(MERCATOR_LIMIT, 'float8');
        const latitude = `radians(LEAST(GREATEST(ST_Y(m.v), -${limit}), ${limit}))`;
        const x = `LEAST(GREATEST(floor((ST_X(m.v) + 180) / 360 * ${tiles}), 0), ${tiles} - 1)::bigint`;
        const y = `LEAST(GREATEST(floor((1 - asinh(tan(${latitude})) / pi()) / 2 * ${tiles}), 0), ${tiles} - 1)::bigint`;
        // LEAST and GREATEST skip NULLs: an item without a footprint must stay NULL (overflow), not tile 0.
        return `CASE WHEN m.v IS NOT NULL THEN ${zoom}::text || '/' || ${x}::text || '/' || ${y}::text END`;
      },
      order: 'frequency',
      bucket: stringBucket,
    },
  };
}

const isoOrNull = (value: number | Date | string | null) =>
  value instanceof Date ? value.toISOString() : null;

/** The options a distribution's answer repeats (the interval, the precision it was computed at). */
function optionsOf(name: DistributionName, request: AggregationRequest): Partial<StacAggregation> {
  if (name === 'datetime_frequency') return { interval: request.interval };
  if (name === 'centroid_geohash_grid_frequency') return { precision: request.geohashPrecision };
  if (name === 'centroid_geotile_grid_frequency') return { precision: request.geotilePrecision };
  return {};
}

/** One aggregation's result, from its one statement. */
export async function computeAggregation(
  pool: Pool,
  name: StacAggregationName,
  scope: Scope,
): Promise<StacAggregation> {
  if (name === 'total_count') {
    const count = await singleValue(pool, scope, 'count(*)::bigint');
    return { name, data_type: 'integer', value: Number(count ?? 0) };
  }
  if (name === 'datetime_min') {
    const earliest = await singleValue(pool, scope, `min(${itemStart('o')})`);
    return { name, data_type: 'datetime', value: isoOrNull(earliest) };
  }
  if (name === 'datetime_max') {
    const latest = await singleValue(pool, scope, `max(${itemEnd('o')})`);
    return { name, data_type: 'datetime', value: isoOrNull(latest) };
  }
  const { buckets, overflow } = await distribution(pool, scope, distributions(scope.request)[name]);
  return { name, data_type: 'frequency_distribution', buckets, overflow, ...optionsOf(name, scope.request) };
}

export type { Scope as AggregationScope };
