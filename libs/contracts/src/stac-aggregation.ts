import { z } from 'zod';
import { stacLinkSchema, stacSearchBodySchema, stacSearchQuerySchema } from './stac.js';

/**
 * The aggregation extension (docs/stac.md, "Aggregation"): `/aggregate` counts the items a search would
 * match, by the same parameters, instead of paging them; `/aggregations` lists what it can count.
 */

/** The aggregations the API computes, in the order `/aggregations` lists them. */
export const STAC_AGGREGATION_NAMES = [
  'total_count',
  'datetime_min',
  'datetime_max',
  'collection_frequency',
  'datetime_frequency',
  'cloud_cover_frequency',
  'centroid_geohash_grid_frequency',
  'centroid_geotile_grid_frequency',
] as const;
export type StacAggregationName = (typeof STAC_AGGREGATION_NAMES)[number];

/** The intervals of `datetime_frequency` (PostgreSQL's `date_trunc` units, in UTC; a week starts on Monday). */
export const STAC_DATETIME_INTERVALS = [
  'year',
  'quarter',
  'month',
  'week',
  'day',
  'hour',
  'minute',
  'second',
] as const;
export type StacDatetimeInterval = (typeof STAC_DATETIME_INTERVALS)[number];

export const STAC_GEOHASH_PRECISION = { min: 1, max: 12, default: 1 } as const;
export const STAC_GEOTILE_PRECISION = { min: 0, max: 29, default: 0 } as const;
/** The most buckets one aggregation answers; the items of the others are its `overflow`. */
export const STAC_MAX_BUCKETS = 10_000;

const aggregationsDescription = `Comma-separated names of the aggregations to compute (\`/aggregations\` lists them: ${STAC_AGGREGATION_NAMES.join(', ')}); every one when absent.`;
const intervalDescription = `The bucket width of \`datetime_frequency\`: ${STAC_DATETIME_INTERVALS.join(', ')} (UTC; default month).`;
const geohashDescription = `Geohash length of \`centroid_geohash_grid_frequency\`, ${STAC_GEOHASH_PRECISION.min} to ${STAC_GEOHASH_PRECISION.max} (default ${STAC_GEOHASH_PRECISION.default}).`;
const geotileDescription = `Zoom level of \`centroid_geotile_grid_frequency\`, ${STAC_GEOTILE_PRECISION.min} to ${STAC_GEOTILE_PRECISION.max} (default ${STAC_GEOTILE_PRECISION.default}).`;

const aggregationParameters = {
  datetime_frequency_interval: z.string().exactOptional().meta({ description: intervalDescription }),
  centroid_geohash_grid_frequency_precision: z
    .string()
    .exactOptional()
    .meta({ description: geohashDescription }),
  centroid_geotile_grid_frequency_precision: z
    .string()
    .exactOptional()
    .meta({ description: geotileDescription }),
};

/** `GET …/aggregate`: the search's parameters that choose items (no paging, sort or fields), and the aggregations. */
export const stacAggregateQuerySchema = stacSearchQuerySchema
  .pick({
    bbox: true,
    datetime: true,
    intersects: true,
    ids: true,
    collections: true,
    filter: true,
    'filter-lang': true,
    'filter-crs': true,
    query: true,
    q: true,
  })
  .extend({
    aggregations: z.string().exactOptional().meta({ description: aggregationsDescription }),
    ...aggregationParameters,
  });
export type StacAggregateQuery = z.infer<typeof stacAggregateQuerySchema>;

/** `GET …/collections/{collectionId}/aggregate`: the same, the collection given by the path. */
export const stacCollectionAggregateQuerySchema = stacAggregateQuerySchema.omit({ collections: true });

/** `POST …/aggregate`: the search body's item parameters, and the aggregations. */
export const stacAggregateBodySchema = stacSearchBodySchema
  .pick({
    bbox: true,
    datetime: true,
    intersects: true,
    ids: true,
    collections: true,
    filter: true,
    'filter-lang': true,
    'filter-crs': true,
    query: true,
    q: true,
  })
  .extend({
    aggregations: z
      .union([z.array(z.string()), z.string()])
      .exactOptional()
      .meta({ description: `${aggregationsDescription} An array, or the GET's comma-separated string.` }),
    datetime_frequency_interval: z.string().exactOptional().meta({ description: intervalDescription }),
    centroid_geohash_grid_frequency_precision: z
      .int()
      .exactOptional()
      .meta({ description: geohashDescription }),
    centroid_geotile_grid_frequency_precision: z
      .int()
      .exactOptional()
      .meta({ description: geotileDescription }),
  });
export type StacAggregateBody = z.infer<typeof stacAggregateBodySchema>;

/** `POST …/collections/{collectionId}/aggregate`: the collection given by the path. */
export const stacCollectionAggregateBodySchema = stacAggregateBodySchema.omit({ collections: true });

/** One bucket: its key, the number of matching items in it, and the bounds of a range bucket. */
export const stacAggregationBucketSchema = z.object({
  key: z.string(),
  data_type: z.enum(['string', 'datetime', 'numeric']),
  frequency: z.int().nonnegative(),
  from: z.union([z.number(), z.string()]).exactOptional().meta({ description: 'Inclusive lower bound.' }),
  to: z.union([z.number(), z.string()]).exactOptional().meta({ description: 'Exclusive upper bound.' }),
});
export type StacAggregationBucket = z.infer<typeof stacAggregationBucketSchema>;

/** One aggregation's result: a single `value`, or `buckets` with the `overflow` no bucket holds. */
export const stacAggregationSchema = z.object({
  name: z.string(),
  data_type: z.enum(['integer', 'datetime', 'frequency_distribution']),
  value: z.union([z.number(), z.string(), z.null()]).exactOptional(),
  buckets: z.array(stacAggregationBucketSchema).exactOptional(),
  overflow: z.int().nonnegative().exactOptional(),
  interval: z.enum(STAC_DATETIME_INTERVALS).exactOptional(),
  precision: z.int().exactOptional(),
});
export type StacAggregation = z.infer<typeof stacAggregationSchema>;

export const stacAggregationCollectionSchema = z.object({
  type: z.literal('AggregationCollection'),
  aggregations: z.array(stacAggregationSchema),
  links: z.array(stacLinkSchema),
});
export type StacAggregationCollection = z.infer<typeof stacAggregationCollectionSchema>;

/** `GET …/aggregations`: what `aggregations` may name, with the type of each result. */
export const stacAggregationsSchema = z.object({
  aggregations: z.array(
    z.object({
      name: z.enum(STAC_AGGREGATION_NAMES),
      data_type: z.enum(['integer', 'datetime', 'frequency_distribution']),
      frequency_distribution_data_type: z.enum(['string', 'datetime', 'numeric']).exactOptional(),
      description: z.string(),
    }),
  ),
  links: z.array(stacLinkSchema),
});
export type StacAggregations = z.infer<typeof stacAggregationsSchema>;
