import { Cql2Error, type Queryable } from '@portal/cql2';
import type { StacQueryables } from '@portal/contracts';
import {
  descriptionSql,
  extentEndSql,
  extentGeometrySql,
  extentStartSql,
  keywordsSql,
  licenseSql,
} from './collection-fields-sql.js';

/**
 * The queryables of the collection search's `filter` and `query` (docs/stac.md, "Collection search"),
 * each the value the collection's STAC JSON shows. A collection has no free-form properties, so any
 * other name is unknown: a 400, where an item would read it as a property.
 */
const collectionQueryables: Readonly<Record<string, Queryable & { readonly title: string }>> = {
  id: {
    sql: 'COALESCE(o.stac_id, o.id::text)',
    type: 'string',
    title: 'The collection id (its STAC name, else its UUID)',
  },
  title: { sql: 'o.title', type: 'string', title: 'The title' },
  description: { sql: descriptionSql, type: 'string', title: 'The description (empty when none)' },
  license: { sql: licenseSql, type: 'string', title: 'The license (`other` when none was given)' },
  keywords: { sql: keywordsSql, type: 'array', title: 'The keywords (the array functions compare them)' },
  datetime: {
    sql: extentStartSql,
    type: 'timestamp',
    title:
      "The temporal extent: compared, its start (the first interval's); for the T_ functions, the first interval, an open end unbounded",
    interval: {
      start: `COALESCE(${extentStartSql}, '-infinity'::timestamptz)`,
      end: `COALESCE(${extentEndSql}, 'infinity'::timestamptz)`,
    },
  },
  start_datetime: {
    sql: extentStartSql,
    type: 'timestamp',
    title: "The start of the temporal extent's first interval",
  },
  end_datetime: {
    sql: extentEndSql,
    type: 'timestamp',
    title: "The end of the temporal extent's first interval (null when open-ended)",
  },
  geometry: {
    sql: extentGeometrySql,
    type: 'geometry',
    title: 'The spatial extent: every box of extent.spatial.bbox (split at the antimeridian)',
  },
  created: { sql: 'o.created_at', type: 'timestamp', title: 'When the collection was created in the portal' },
  updated: {
    sql: 'o.updated_at',
    type: 'timestamp',
    title: 'When the collection last changed in the portal',
  },
};

export function resolveCollectionQueryable(name: string): Queryable {
  const queryable = Object.hasOwn(collectionQueryables, name) ? collectionQueryables[name] : undefined;
  if (queryable === undefined) {
    throw new Cql2Error(
      `unknown queryable '${name}' of collections (known: ${Object.keys(collectionQueryables).join(', ')})`,
    );
  }
  return queryable;
}

/** How each queryable reads in JSON Schema (the forms OGC API Features Part 3 lists). */
function jsonSchemaOf(queryable: Queryable): Record<string, unknown> {
  if (queryable.type === 'timestamp') return { type: 'string', format: 'date-time' };
  if (queryable.type === 'geometry') return { $ref: 'https://geojson.org/schema/Geometry.json' };
  if (queryable.type === 'array') return { type: 'array', items: { type: 'string' } };
  return { type: queryable.type };
}

/** `GET /collection-queryables`: the names above as JSON Schema, closed (no other name is accepted). */
export function collectionQueryablesSchema(selfUrl: string): StacQueryables {
  const properties = Object.fromEntries(
    Object.entries(collectionQueryables).map(([name, queryable]) => [
      name,
      {
        title: queryable.title,
        ...(name === 'end_datetime'
          ? { type: ['string', 'null'], format: 'date-time' }
          : jsonSchemaOf(queryable)),
      },
    ]),
  );
  return {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    $id: selfUrl,
    type: 'object',
    title: 'STAC collection search',
    description:
      "What the collection search's filter and query may use: a collection's fields, its extent's times and boxes (datetime, start_datetime, end_datetime, geometry) and when the portal created and last changed it; no other name is accepted.",
    properties,
    additionalProperties: false,
  };
}
