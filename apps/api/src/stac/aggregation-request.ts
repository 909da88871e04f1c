import {
  STAC_AGGREGATION_NAMES,
  STAC_DATETIME_INTERVALS,
  STAC_GEOHASH_PRECISION,
  STAC_GEOTILE_PRECISION,
  type StacAggregateBody,
  type StacAggregateQuery,
  type StacAggregationName,
  type StacDatetimeInterval,
} from '@portal/contracts';
import { badParameter } from './stac-problem.js';

/** What `/aggregate` computes (docs/stac.md, "Aggregation"): the names, and the options of some. */
export interface AggregationRequest {
  readonly names: readonly StacAggregationName[];
  readonly interval: StacDatetimeInterval;
  readonly geohashPrecision: number;
  readonly geotilePrecision: number;
}

const CODE = 'INVALID_AGGREGATION';

const isName = (name: string): name is StacAggregationName =>
  (STAC_AGGREGATION_NAMES as readonly string[]).includes(name);

/** The names asked for, each once, in the order given; every aggregation when none is given. */
function parseNames(value: string | readonly string[] | undefined): readonly StacAggregationName[] {
  if (value === undefined) return STAC_AGGREGATION_NAMES;
  const list = (typeof value === 'string' ? value.split(',') : value).map((name) => name.trim());
  if (list.length === 0 || list.some((name) => name === '')) {
    throw badParameter('aggregations', 'must name aggregations, none of them empty', CODE);
  }
  const unknown = list.find((name) => !isName(name));
  if (unknown !== undefined) {
    throw badParameter(
      'aggregations',
      `unknown aggregation '${unknown.slice(0, 100)}' (known: ${STAC_AGGREGATION_NAMES.join(', ')})`,
      CODE,
    );
  }
  return [...new Set(list.filter(isName))];
}

function parseInterval(value: string | undefined): StacDatetimeInterval {
  if (value === undefined) return 'month';
  const interval = STAC_DATETIME_INTERVALS.find((known) => known === value.trim());
  if (interval === undefined) {
    throw badParameter(
      'datetime_frequency_interval',
      `must be one of ${STAC_DATETIME_INTERVALS.join(', ')}`,
      CODE,
    );
  }
  return interval;
}

function checkedPrecision(
  parameter: string,
  value: number | undefined,
  range: { readonly min: number; readonly max: number; readonly default: number },
): number {
  if (value === undefined) return range.default;
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw badParameter(parameter, `must be an integer from ${range.min} to ${range.max}`, CODE);
  }
  return value;
}

function precisionText(
  parameter: string,
  text: string | undefined,
  range: { readonly min: number; readonly max: number; readonly default: number },
): number {
  if (text === undefined) return range.default;
  if (!/^\d{1,3}$/.test(text.trim())) {
    throw badParameter(parameter, `must be an integer from ${range.min} to ${range.max}`, CODE);
  }
  return checkedPrecision(parameter, Number(text), range);
}

export function aggregationFromQuery(query: StacAggregateQuery): AggregationRequest {
  return {
    names: parseNames(query.aggregations),
    interval: parseInterval(query.datetime_frequency_interval),
    geohashPrecision: precisionText(
      'centroid_geohash_grid_frequency_precision',
      query.centroid_geohash_grid_frequency_precision,
      STAC_GEOHASH_PRECISION,
    ),
    geotilePrecision: precisionText(
      'centroid_geotile_grid_frequency_precision',
      query.centroid_geotile_grid_frequency_precision,
      STAC_GEOTILE_PRECISION,
    ),
  };
}

export function aggregationFromBody(body: StacAggregateBody): AggregationRequest {
  return {
    names: parseNames(body.aggregations),
    interval: parseInterval(body.datetime_frequency_interval),
    geohashPrecision: checkedPrecision(
      'centroid_geohash_grid_frequency_precision',
      body.centroid_geohash_grid_frequency_precision,
      STAC_GEOHASH_PRECISION,
    ),
    geotilePrecision: checkedPrecision(
      'centroid_geotile_grid_frequency_precision',
      body.centroid_geotile_grid_frequency_precision,
      STAC_GEOTILE_PRECISION,
    ),
  };
}
