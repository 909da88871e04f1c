import type { StacQueryables } from '@portal/contracts';
import type { QueryableType } from '@portal/cql2';
import { fixedQueryables } from './item-filter.js';

/** How each queryable type reads in JSON Schema (the forms OGC API Features Part 3 lists). */
function jsonSchemaOf(type: QueryableType): Record<string, unknown> {
  switch (type) {
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'geometry':
      return { $ref: 'https://geojson.org/schema/Geometry.json' };
    case 'json':
      return {};
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'array':
      return { type };
  }
}

const descriptions: Readonly<Record<string, string>> = {
  id: 'The item id',
  collection: 'The id of the collection the item is in (absent for items directly under a catalog)',
  datetime: 'The instant; null for an item with a range, whose start..end the T_ functions use',
  start_datetime: 'The start of the range (items with a range only)',
  end_datetime: 'The end of the range (items with a range only)',
  geometry: 'The footprint (from the geometry, or the bbox when the item gave only a bbox)',
  title: 'The title',
  description: 'The description',
  created: 'When the item was created in the portal',
  updated: 'When the item last changed in the portal',
};

/**
 * The queryables as JSON Schema. Every item shares them, so a collection's are the same list: the
 * property names its items use are not listed, since finding them means reading every item's
 * properties (a full scan of the collection per request); any name is accepted as a free-form property.
 */
export function itemQueryables(selfUrl: string, title: string): StacQueryables {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, type] of fixedQueryables) {
    // datetime is null for an item with a range (STAC), so its schema admits null.
    const schema =
      name === 'datetime' ? { type: ['string', 'null'], format: 'date-time' } : jsonSchemaOf(type);
    properties[name] = { title: descriptions[name] ?? name, ...schema };
  }
  return {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    $id: selfUrl,
    type: 'object',
    title,
    description:
      'The fixed queryables of items; any other name is an item property of any JSON type, compared only with values of its own type.',
    properties,
    additionalProperties: true,
  };
}
