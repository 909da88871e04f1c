import type { StacAggregationName, StacAggregations } from '@portal/contracts';

type Listed = StacAggregations['aggregations'][number];

/**
 * What `/aggregations` lists (docs/stac.md, "Aggregation"): every aggregation `/aggregate` computes, at
 * the root and for each collection alike (a collection's items have the same fields as any other's).
 */
const listed: Readonly<Record<StacAggregationName, Omit<Listed, 'name'>>> = {
  total_count: { data_type: 'integer', description: 'The number of matching items.' },
  datetime_min: {
    data_type: 'datetime',
    description: 'The earliest start of a matching item’s time (its instant, or its range’s start).',
  },
  datetime_max: {
    data_type: 'datetime',
    description: 'The latest end of a matching item’s time (its instant, or its range’s end).',
  },
  collection_frequency: {
    data_type: 'frequency_distribution',
    frequency_distribution_data_type: 'string',
    description:
      'Matching items per collection id, most first; items in no collection the caller may read count as overflow.',
  },
  datetime_frequency: {
    data_type: 'frequency_distribution',
    frequency_distribution_data_type: 'datetime',
    description:
      'Matching items per interval (`datetime_frequency_interval`, default month, UTC) of the start of their time, oldest first; empty intervals are left out.',
  },
  cloud_cover_frequency: {
    data_type: 'frequency_distribution',
    frequency_distribution_data_type: 'numeric',
    description:
      'Matching items per range of ten of the `eo:cloud_cover` property (below 10, 10 to 20, …, 90 and above); items without a numeric value count as overflow.',
  },
  centroid_geohash_grid_frequency: {
    data_type: 'frequency_distribution',
    frequency_distribution_data_type: 'string',
    description:
      'Matching items per geohash (`centroid_geohash_grid_frequency_precision` characters, default 1) of their footprint’s centroid, most first; items without a footprint count as overflow.',
  },
  centroid_geotile_grid_frequency: {
    data_type: 'frequency_distribution',
    frequency_distribution_data_type: 'string',
    description:
      'Matching items per web-mercator tile `z/x/y` (zoom `centroid_geotile_grid_frequency_precision`, default 0) of their footprint’s centroid, most first; items without a footprint count as overflow.',
  },
};

export function aggregationList(): Listed[] {
  return (Object.keys(listed) as StacAggregationName[]).map((name) => ({ name, ...listed[name] }));
}

export function dataTypeOf(name: StacAggregationName): Listed['data_type'] {
  return listed[name].data_type;
}
