import { z } from 'zod';
import { geometrySchema } from './geojson.js';

/**
 * STAC API 1.0 under `/api/v1/stac` (docs/stac.md): the response shapes written from the STAC API and
 * OGC API Features specifications, and the item search request. Objects are loose where STAC lets
 * extensions add fields; the API always sends at least what these require.
 */

export const STAC_VERSION = '1.0.0';
/** Items per page when the client gives no `limit`, and the most it may ask for. */
export const STAC_DEFAULT_LIMIT = 10;
export const STAC_MAX_LIMIT = 1000;
/** How many ids or collections one search may name. */
export const STAC_MAX_IDS = 1000;

export const stacLinkSchema = z.looseObject({
  href: z.string().meta({ description: 'Absolute URL.' }),
  rel: z.string(),
  type: z.string().exactOptional(),
  title: z.string().exactOptional(),
  method: z.enum(['GET', 'POST']).exactOptional().meta({ description: 'On `next` links of POST searches.' }),
  body: z
    .record(z.string(), z.unknown())
    .exactOptional()
    .meta({ description: 'The request body to POST for the next page (the whole body: `merge` is false).' }),
  merge: z.boolean().exactOptional(),
});
export type StacLink = z.infer<typeof stacLinkSchema>;

/** What every STAC error carries: STAC clients read `code` and `description`, this service's clients `message`. */
export const stacErrorSchema = z.object({
  code: z.string(),
  description: z.string(),
  message: z.string(),
});

const stacCommon = {
  stac_version: z.literal(STAC_VERSION),
  stac_extensions: z.array(z.string()),
  id: z.string(),
  title: z.string().exactOptional(),
  description: z.string(),
  links: z.array(stacLinkSchema),
};

export const stacCatalogSchema = z.looseObject({ type: z.literal('Catalog'), ...stacCommon });
export type StacCatalog = z.infer<typeof stacCatalogSchema>;

export const stacLandingPageSchema = z.looseObject({
  type: z.literal('Catalog'),
  ...stacCommon,
  conformsTo: z.array(z.string()).meta({ description: 'The conformance classes the API implements.' }),
});

export const stacConformanceSchema = z.object({ conformsTo: z.array(z.string()) });

const stacBboxSchema = z.array(z.number()).min(4).max(6);

export const stacCollectionSchema = z.looseObject({
  type: z.literal('Collection'),
  ...stacCommon,
  keywords: z.array(z.string()).exactOptional(),
  license: z.string(),
  extent: z.object({
    spatial: z.object({ bbox: z.array(stacBboxSchema).min(1) }),
    temporal: z.object({ interval: z.array(z.tuple([z.string().nullable(), z.string().nullable()])).min(1) }),
  }),
});
export type StacCollection = z.infer<typeof stacCollectionSchema>;

export const stacCollectionsSchema = z.object({
  collections: z.array(
    z.union([
      stacCollectionSchema,
      z.record(z.string(), z.unknown()).meta({
        description: 'A collection with only the fields `fields` asked for (the fields extension).',
      }),
    ]),
  ),
  links: z.array(stacLinkSchema),
  numberReturned: z.int().nonnegative(),
});

export const stacChildrenSchema = z.object({
  children: z.array(z.union([stacCatalogSchema, stacCollectionSchema])),
  links: z.array(stacLinkSchema),
});

export const stacAssetSchema = z.looseObject({
  href: z.string(),
  type: z.string().exactOptional(),
  title: z.string().exactOptional(),
  roles: z.array(z.string()).exactOptional(),
});

export const stacItemSchema = z.looseObject({
  type: z.literal('Feature'),
  stac_version: z.literal(STAC_VERSION),
  stac_extensions: z.array(z.string()),
  id: z.string(),
  geometry: z.record(z.string(), z.unknown()).nullable(),
  bbox: stacBboxSchema.exactOptional(),
  properties: z.looseObject({
    datetime: z.string().nullable(),
    start_datetime: z.string().exactOptional(),
    end_datetime: z.string().exactOptional(),
  }),
  links: z.array(stacLinkSchema),
  assets: z.record(z.string(), stacAssetSchema),
  collection: z.string().exactOptional().meta({ description: 'Absent for items directly under a catalog.' }),
});
export type StacItem = z.infer<typeof stacItemSchema>;

/** An item cut by the fields extension: whatever the request's `fields` kept (docs/stac.md, "Fields"). */
export const stacPartialItemSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'An item with only the fields `fields` asked for (the fields extension).' });

export const stacItemCollectionSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.union([stacItemSchema, stacPartialItemSchema])),
  links: z.array(stacLinkSchema),
  numberReturned: z.int().nonnegative(),
});
export type StacItemCollection = z.infer<typeof stacItemCollectionSchema>;

const limitDescription = `Items per page, 1 or more; more than ${STAC_MAX_LIMIT} reads as ${STAC_MAX_LIMIT}; ${STAC_DEFAULT_LIMIT} when absent.`;
const tokenDescription =
  'The opaque token of a `next` link (continues the same search after its last item) or of an item page’s `prev` link (the page before its first item).';
const datetimeDescription =
  'RFC 3339 instant (`2024-01-31T12:00:00Z`), closed interval (`a/b`) or open interval (`../b`, `a/..`): items whose datetime, or start..end range, meets it.';
const filterDescription =
  'A CQL2 filter over the queryables (`/queryables`): CQL2 text, or CQL2 JSON as specified by `filter-lang`.';
const filterLangDescription =
  '`cql2-text` or `cql2-json`; `cql2-text` when absent on a GET, `cql2-json` (or text when `filter` is a string) on a POST.';
const filterCrsDescription =
  "The CRS of the filter's geometries: `http://www.opengis.net/def/crs/OGC/1.3/CRS84` (the default) or `http://www.opengis.net/def/crs/EPSG/0/4326`, both longitude, latitude.";
const sortbyDescription =
  'The sort extension: comma-separated fields, each with `+` (ascending, the default; `%2B` in a URL) or `-` (descending), e.g. `-datetime,+properties.eo:cloud_cover`. Sortable: `id`, `collection`, `datetime`, `start_datetime`, `end_datetime`, `created`, `updated`, `title`, `description` and any item property (`properties.` optional); the id breaks ties. Default `-datetime`.';
const fieldsDescription =
  "The fields extension: comma-separated fields each item keeps (`id,properties.eo:cloud_cover`; `type`, `stac_version`, `id` and `links` are kept too unless dropped), or drops with `-` (`-geometry`); a name outside the Item's top level is a property (`properties.` optional). Only drops: the default set less those. Empty: the default set (`type`, `stac_version`, `stac_extensions`, `id`, `geometry`, `bbox`, `links`, `assets`, `collection` and the time properties).";
const queryDescription =
  'The query extension: `{"<property>": {"<operator>": value}}` (as JSON text in a GET), operators `eq`, `neq`, `lt`, `lte`, `gt`, `gte`, `startsWith`, `endsWith`, `contains`, `in`, all ANDed; properties as the queryables name them (`properties.` optional). String comparisons ignore case; a string that reads as a JSON number also compares as that number; `lt`…`gte` take a number or an RFC 3339 date-time; `in` also matches an array property sharing a value. Translated like `filter`.';
const qDescription =
  'The free-text extension (advanced): words and "quoted phrases" in the title, description and `keywords`, any case; spaces, commas and `OR` mean any of them, `AND` both, parentheses group, `+word` is required and `-word` excluded. Words match whole (no stemming).';
const bboxDescription =
  'west,south,east,north (or 6 numbers with min and max height); west > east crosses the antimeridian.';

/**
 * `GET /api/v1/stac/search` and a collection's items: every value a string, checked by the API. Strict:
 * OGC API Features answers 400 to a parameter it does not define, rather than ignore a filter.
 */
export const stacSearchQuerySchema = z.strictObject({
  bbox: z.string().exactOptional().meta({ description: bboxDescription }),
  datetime: z.string().exactOptional().meta({ description: datetimeDescription }),
  intersects: z.string().exactOptional().meta({ description: 'A GeoJSON geometry, as JSON text.' }),
  ids: z.string().exactOptional().meta({ description: 'Comma-separated item ids.' }),
  collections: z
    .string()
    .exactOptional()
    .meta({ description: 'Comma-separated collection ids: UUIDs or STAC names.' }),
  filter: z.string().exactOptional().meta({ description: filterDescription }),
  'filter-lang': z.string().exactOptional().meta({ description: filterLangDescription }),
  'filter-crs': z.string().exactOptional().meta({ description: filterCrsDescription }),
  sortby: z.string().exactOptional().meta({ description: sortbyDescription }),
  fields: z.string().exactOptional().meta({ description: fieldsDescription }),
  query: z.string().exactOptional().meta({ description: queryDescription }),
  q: z.string().exactOptional().meta({ description: qDescription }),
  limit: z.string().exactOptional().meta({ description: limitDescription }),
  token: z.string().exactOptional().meta({ description: tokenDescription }),
});

/**
 * `GET …/collections/{collectionId}/items`: the OGC API Features subset of the search, and
 * `collections`, which pystac-client sends there (`?collections=<that collection>`) on every
 * `get_items()`: items of the path's collection that are also of those named.
 */
export const stacItemsQuerySchema = stacSearchQuerySchema
  .pick({
    bbox: true,
    datetime: true,
    filter: true,
    'filter-lang': true,
    'filter-crs': true,
    sortby: true,
    fields: true,
    query: true,
    q: true,
    limit: true,
    token: true,
  })
  .extend({
    collections: z.string().exactOptional().meta({
      description:
        "Comma-separated collection ids; only narrows the path's collection: its items when it is named, none otherwise (pystac-client sends the path's own id).",
    }),
  });

/** A page of collections. */
export const stacListQuerySchema = stacSearchQuerySchema.pick({ limit: true, token: true });

/** A page of children: 1,000 when `limit` is absent, as many as the container's own `child` links. */
export const stacChildrenQuerySchema = stacListQuerySchema.extend({
  limit: z
    .string()
    .exactOptional()
    .meta({
      description: `Children per page, 1 or more; more than ${STAC_MAX_LIMIT} reads as ${STAC_MAX_LIMIT}; ${STAC_MAX_LIMIT} when absent (as many as the container's own child links).`,
    }),
});

/**
 * A browse page (docs/stac.md, "Browsing"): a catalog of the `child` (`kind=children`) or `item`
 * (`kind=items`) links of a container past those its own JSON holds, continued by its last `child` link.
 */
export const stacBrowseQuerySchema = z.strictObject({
  kind: z
    .enum(['children', 'items'])
    .exactOptional()
    .meta({ description: 'What the page links: child catalogs and collections, or items.' }),
  token: z.string().exactOptional().meta({ description: 'From the `child` link of the previous page.' }),
});

/**
 * `GET …/collections`, with the collection search extension: `bbox` and `datetime` meet any box or
 * interval of a collection's extent, `q` its title, description and keywords; `filter` and `query` over
 * the collection queryables, `sortby` over the collection sortables, `fields` over the Collection's JSON.
 */
export const stacCollectionsQuerySchema = z.strictObject({
  bbox: z
    .string()
    .exactOptional()
    .meta({
      description: `${bboxDescription} Collections any box of whose extent.spatial.bbox meets it.`,
    }),
  datetime: z.string().exactOptional().meta({
    description:
      'RFC 3339 instant, closed interval (`a/b`) or open interval (`../b`, `a/..`): collections any interval of whose extent.temporal.interval meets it.',
  }),
  q: z.string().exactOptional().meta({ description: qDescription }),
  filter: z.string().exactOptional().meta({
    description:
      'A CQL2 filter over the collection queryables (`/collection-queryables`): CQL2 text, or CQL2 JSON as specified by `filter-lang`.',
  }),
  'filter-lang': z
    .string()
    .exactOptional()
    .meta({ description: '`cql2-text` (the default) or `cql2-json`.' }),
  'filter-crs': z.string().exactOptional().meta({ description: filterCrsDescription }),
  query: z.string().exactOptional().meta({
    description:
      'The query extension as JSON text, `{"<queryable>": {"<operator>": value}}`, over the collection queryables; operators as on the search.',
  }),
  sortby: z.string().exactOptional().meta({
    description:
      'Comma-separated fields, each `+` (ascending, the default; `%2B` in a URL) or `-` (descending): `id`, `title`, `description`, `license`, `datetime` and `start_datetime` (the start of the temporal extent), `end_datetime` (its end; open-ended last ascending), `created`, `updated` (`/collection-sortables`); the id breaks ties. Default `+created`.',
  }),
  fields: z.string().exactOptional().meta({
    description:
      'Comma-separated fields of the Collection each one keeps (`id,title,extent.temporal`), or drops with `-` (`-links`). Only drops: the default set less those. Empty: the default set (`type`, `stac_version`, `stac_extensions`, `id`, `description`, `license`, `extent`, `links`).',
  }),
  limit: z.string().exactOptional().meta({ description: limitDescription }),
  token: z.string().exactOptional().meta({
    description:
      'The opaque token of a `next` or `prev` link (the page after its last, or before its first, collection).',
  }),
});

/** `POST /api/v1/stac/search`. The API checks each value and answers 400 naming the first bad one. */
export const stacSearchBodySchema = z.strictObject({
  bbox: z.array(z.number()).exactOptional().meta({ description: bboxDescription }),
  datetime: z.string().exactOptional().meta({ description: datetimeDescription }),
  intersects: geometrySchema.exactOptional(),
  ids: z.array(z.string()).exactOptional(),
  collections: z
    .union([z.array(z.string()), z.string()])
    .exactOptional()
    .meta({ description: 'Collection ids: an array, or one string (a comma-separated list).' }),
  filter: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .exactOptional()
    .meta({ description: filterDescription }),
  'filter-lang': z.string().exactOptional().meta({ description: filterLangDescription }),
  'filter-crs': z.string().exactOptional().meta({ description: filterCrsDescription }),
  sortby: z
    .union([z.array(z.strictObject({ field: z.string(), direction: z.enum(['asc', 'desc']) })), z.string()])
    .exactOptional()
    .meta({
      description:
        'The sort extension: `[{"field": "properties.eo:cloud_cover", "direction": "asc"}, …]` (or the GET form as one string). Sortable fields as for the GET `sortby`.',
    }),
  fields: z
    .strictObject({
      include: z.array(z.string()).nullable().exactOptional(),
      exclude: z.array(z.string()).nullable().exactOptional(),
    })
    .exactOptional()
    .meta({
      description:
        'The fields extension: `include` keeps those fields (and `type`, `stac_version`, `id` and `links`, unless excluded); `exclude` alone drops those from the whole item, beside an empty `include` from the default set; both empty: the default set. `fields: null` is refused (400), as the STAC API validator expects. Names as for the GET `fields`.',
    }),
  query: z.record(z.string(), z.unknown()).exactOptional().meta({ description: queryDescription }),
  q: z
    .union([z.string(), z.array(z.string())])
    .exactOptional()
    .meta({
      description: `${qDescription} An array (the basic form) matches any of its strings, each a phrase.`,
    }),
  limit: z.int().exactOptional().meta({ description: limitDescription }),
  token: z.string().exactOptional().meta({ description: tokenDescription }),
});
export type StacSearchBody = z.infer<typeof stacSearchBodySchema>;

/**
 * `GET …/queryables`: a JSON Schema of the names a filter may use. Loose: the schema's keywords are
 * JSON Schema's; `additionalProperties` is true for items (their properties are free-form), false for
 * collections.
 */
export const stacQueryablesSchema = z.looseObject({
  $schema: z.string(),
  $id: z.string(),
  type: z.literal('object'),
  title: z.string(),
  properties: z.record(z.string(), z.record(z.string(), z.unknown())),
  additionalProperties: z.boolean().meta({
    description: 'true for items (any other name is a property); false for collections, which have none.',
  }),
});
export type StacQueryables = z.infer<typeof stacQueryablesSchema>;
