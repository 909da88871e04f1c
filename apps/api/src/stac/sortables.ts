import type { StacQueryables } from '@portal/contracts';
import { fixedSortFields } from './item-sort.js';

/** What each fixed sort key orders by, as JSON Schema (times are RFC 3339 strings in the item). */
const schemas: Readonly<Record<string, Record<string, unknown>>> = {
  id: { title: 'The item id', type: 'string' },
  collection: {
    title: 'The id of the collection the item is in (none sorts last ascending)',
    type: 'string',
  },
  datetime: {
    title: "The start of the item's time (its instant, or its range's start)",
    type: 'string',
    format: 'date-time',
  },
  start_datetime: { title: "The start of the item's time, as datetime", type: 'string', format: 'date-time' },
  end_datetime: {
    title: "The end of the item's time (its instant, or its range's end)",
    type: 'string',
    format: 'date-time',
  },
  created: { title: 'When the item was created in the portal', type: 'string', format: 'date-time' },
  updated: { title: 'When the item last changed in the portal', type: 'string', format: 'date-time' },
  title: { title: 'The title', type: 'string' },
  description: { title: 'The description (none sorts last ascending)', type: 'string' },
};

/**
 * `GET /sortables` (and a collection's): the names `sortby` accepts (docs/stac.md, "Sort"), as a JSON
 * Schema like the queryables. The fixed keys are listed; any other name is an item property, which
 * sorts when it is a string, number or boolean (`additionalProperties: true`).
 */
export function itemSortables(selfUrl: string, title: string): StacQueryables {
  const properties = Object.fromEntries(
    fixedSortFields.map((name) => [name, schemas[name] ?? { title: name }]),
  );
  return {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    $id: selfUrl,
    type: 'object',
    title,
    description:
      'The fields sortby orders by; any other name is an item property (`properties.` optional), ordered when a string, number or boolean. geometry, bbox, assets and links do not sort.',
    properties,
    additionalProperties: true,
  };
}
