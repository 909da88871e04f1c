import { z } from 'zod';

/**
 * STAC API 1.0 and OGC API Features response shapes, written from the specifications (stac-spec item,
 * catalog and collection; stac-api-spec core, ogcapi-features, item-search; the children extension),
 * independently of the service's own contract schemas, so a drift of one from the standard shows.
 */

/** Every STAC link: an href (absolute here: the API promises it) and a relation. */
export const specLink = z.looseObject({
  href: z.url(),
  rel: z.string().min(1),
  type: z.string().optional(),
  title: z.string().optional(),
});

const links = z.array(specLink);

/** Catalog spec: type, stac_version, id, description, links required; stac_extensions an array of URLs. */
export const specCatalog = z.looseObject({
  type: z.literal('Catalog'),
  stac_version: z.literal('1.0.0'),
  stac_extensions: z.array(z.url()).optional(),
  id: z.string().min(1),
  title: z.string().optional(),
  description: z.string(),
  links,
});

export const specLandingPage = specCatalog.extend({ conformsTo: z.array(z.url()).min(1) });

const bbox = z.union([
  z.tuple([z.number(), z.number(), z.number(), z.number()]),
  z.array(z.number()).length(6),
]);
const timestampOrNull = z.iso.datetime({ offset: true }).nullable();

/** Collection spec: adds license, extent (spatial bbox list, temporal interval list). */
export const specCollection = z.looseObject({
  type: z.literal('Collection'),
  stac_version: z.literal('1.0.0'),
  stac_extensions: z.array(z.url()).optional(),
  id: z.string().min(1),
  title: z.string().optional(),
  description: z.string(),
  keywords: z.array(z.string()).optional(),
  license: z.string().min(1),
  extent: z.object({
    spatial: z.object({ bbox: z.array(bbox).min(1) }),
    temporal: z.object({ interval: z.array(z.tuple([timestampOrNull, timestampOrNull])).min(1) }),
  }),
  links,
});

const geometry = z.looseObject({
  type: z.enum([
    'Point',
    'MultiPoint',
    'LineString',
    'MultiLineString',
    'Polygon',
    'MultiPolygon',
    'GeometryCollection',
  ]),
  coordinates: z.unknown().optional(),
  geometries: z.array(z.unknown()).optional(),
});

/**
 * Item spec: a GeoJSON Feature; `bbox` required when there is a geometry; `datetime` required, null only
 * with both `start_datetime` and `end_datetime`; `collection` required when a `collection` link exists.
 */
export const specItem = z
  .looseObject({
    type: z.literal('Feature'),
    stac_version: z.literal('1.0.0'),
    stac_extensions: z.array(z.url()).optional(),
    id: z.string().min(1),
    geometry: geometry.nullable(),
    bbox: bbox.optional(),
    properties: z.looseObject({
      datetime: timestampOrNull,
      start_datetime: z.iso.datetime({ offset: true }).optional(),
      end_datetime: z.iso.datetime({ offset: true }).optional(),
    }),
    links,
    assets: z.record(
      z.string(),
      z.looseObject({ href: z.string().min(1), roles: z.array(z.string()).optional() }),
    ),
    collection: z.string().optional(),
  })
  .superRefine((item, ctx) => {
    if (item.geometry !== null && item.bbox === undefined)
      ctx.addIssue({ code: 'custom', message: 'bbox required with a geometry' });
    const { datetime, start_datetime: start, end_datetime: end } = item.properties;
    if (datetime === null && (start === undefined || end === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'datetime null needs start_datetime and end_datetime' });
    }
    const hasCollectionLink = item.links.some((link) => link.rel === 'collection');
    if (hasCollectionLink !== (item.collection !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'collection field and collection link go together' });
    }
  });
export type SpecItem = z.infer<typeof specItem>;

/** ItemCollection fragment: a FeatureCollection; numberReturned, when given, counts the features. */
export const specItemCollection = z
  .looseObject({
    type: z.literal('FeatureCollection'),
    features: z.array(specItem),
    links,
    numberReturned: z.int().nonnegative().optional(),
    numberMatched: z.int().nonnegative().optional(),
  })
  .superRefine((page, ctx) => {
    if (page.numberReturned !== undefined && page.numberReturned !== page.features.length) {
      ctx.addIssue({ code: 'custom', message: 'numberReturned differs from the features returned' });
    }
  });
export type SpecItemCollection = z.infer<typeof specItemCollection>;

/** OGC API Features /collections: `collections` and `links`. */
export const specCollections = z.looseObject({ collections: z.array(specCollection), links });

/** Children extension: `children` (Catalogs and Collections, each with a `self` link) and `links`. */
export const specChildren = z.looseObject({
  children: z.array(z.union([specCatalog, specCollection])),
  links,
});

/** OGC API Features /conformance. */
export const specConformance = z.looseObject({ conformsTo: z.array(z.url()).min(1) });

/** STAC API errors: `code` and `description`; the service adds its `message`. */
export const specError = z.looseObject({
  code: z.string().min(1),
  description: z.string().min(1),
  message: z.string(),
});

/** Throws with zod's issues when `value` does not have the shape. */
export function expectShape(schema: z.ZodType, value: unknown): void {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new Error(
      `not the STAC shape: ${z.prettifyError(parsed.error)}\n${JSON.stringify(value).slice(0, 2000)}`,
    );
}

export function linkOf(body: { links: readonly { rel: string; href: string }[] }, rel: string) {
  return body.links.find((link) => link.rel === rel);
}
