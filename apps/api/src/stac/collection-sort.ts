import type { StacQueryables } from '@portal/contracts';
import { descriptionSql, extentEndSql, extentStartSql, licenseSql } from './collection-fields-sql.js';
import type { ItemSort, SortKey } from './item-sort.js';
import type { SortTerm } from './sort-request.js';
import { badParameter } from './stac-problem.js';

/**
 * How a list of collections (or of children) is ordered: the collection search's `sortby` (docs/stac.md,
 * "Collection search"), each key the value the collection's STAC JSON shows, then the id. The same
 * shape as an item sort, so the same keyset SQL (`afterSql`, `reversedSort`) pages it both ways.
 */
type KeyDefinition = Omit<SortKey, 'field' | 'direction'> & {
  readonly title: string;
  readonly format?: string;
};

// Nullable: a given start that is no valid time (an old extent) reads as open, NULL (docs/stac.md).
const start: KeyDefinition = {
  sql: extentStartSql,
  type: 'timestamptz',
  nullable: true,
  title: "The start of the temporal extent (its first interval's)",
  format: 'date-time',
};

const collectionKeys: Readonly<Record<string, KeyDefinition>> = {
  // The UUID, not a STAC name: the key every page's token ends with.
  id: { sql: 'o.id', type: 'uuid', nullable: false, title: 'The collection UUID' },
  title: { sql: 'o.title', type: 'text', nullable: false, title: 'The title' },
  description: { sql: descriptionSql, type: 'text', nullable: false, title: 'The description' },
  license: { sql: licenseSql, type: 'text', nullable: false, title: 'The license' },
  datetime: start,
  start_datetime: start,
  end_datetime: {
    sql: extentEndSql,
    type: 'timestamptz',
    nullable: true,
    title: "The end of the temporal extent's first interval (open-ended sorts last ascending)",
    format: 'date-time',
  },
  created: {
    sql: 'o.created_at',
    type: 'timestamptz',
    nullable: false,
    title: 'When the collection was created in the portal',
    format: 'date-time',
  },
  updated: {
    sql: 'o.updated_at',
    type: 'timestamptz',
    nullable: false,
    title: 'When the collection last changed in the portal',
    format: 'date-time',
  },
};

/** Fields of a collection's JSON that are no sortable values (arrays and objects). */
const unsortable = new Set([
  'type',
  'stac_version',
  'stac_extensions',
  'keywords',
  'extent',
  'links',
  'geometry',
  'bbox',
]);

const invalid = (message: string) => badParameter('sortby', message, 'INVALID_SORTBY');

function keyOf(term: SortTerm): SortKey {
  const { field, direction } = term;
  if (unsortable.has(field)) throw invalid(`cannot sort by '${field}'`);
  const definition = Object.hasOwn(collectionKeys, field) ? collectionKeys[field] : undefined;
  if (definition === undefined) {
    throw invalid(
      `unknown field '${field}' of collections (sortable: ${Object.keys(collectionKeys).join(', ')})`,
    );
  }
  return { field, sql: definition.sql, type: definition.type, nullable: definition.nullable, direction };
}

/** Oldest first: the order `portal_objects_kind_created` (and `…_parent_created`) reads without a sort. */
const DEFAULT_TERMS: readonly SortTerm[] = [{ field: 'created', direction: 'asc' }];

/**
 * The sort of a list of collections: the given terms (or creation), then the id in the first term's
 * direction, which makes the order total; terms after the id are dropped.
 */
export function collectionSort(terms: readonly SortTerm[] | null): ItemSort {
  const keys: SortKey[] = [];
  for (const term of terms ?? DEFAULT_TERMS) {
    const key = keyOf(term);
    if (keys.some((known) => known.field === key.field)) throw invalid(`names '${key.field}' twice`);
    keys.push(key);
    if (key.field === 'id') break;
  }
  const [first] = keys;
  if (first !== undefined && !keys.some((key) => key.field === 'id')) {
    keys.push(keyOf({ field: 'id', direction: first.direction }));
  }
  const signature = keys.map((key) => `${key.direction === 'desc' ? '-' : '+'}${key.field}`).join(',');
  return { keys, signature, conditions: [], leadingTime: null };
}

/** The order of `/children`: creation, then id (no `sortby` there). */
export const childrenSort = collectionSort(null);

/** `GET /collection-sortables`: the names `sortby` on `/collections` accepts, as JSON Schema. */
export function collectionSortablesSchema(selfUrl: string): StacQueryables {
  const properties = Object.fromEntries(
    Object.entries(collectionKeys).map(([name, key]) => [
      name,
      {
        title: key.title,
        ...(key.format === undefined
          ? { type: 'string' }
          : { type: key.nullable ? ['string', 'null'] : 'string', format: key.format }),
      },
    ]),
  );
  return {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    $id: selfUrl,
    type: 'object',
    title: 'STAC collection search',
    description:
      "What sortby on /collections orders by: a collection's fields, its extent's times and when the portal created and last changed it; the id breaks ties.",
    properties,
    additionalProperties: false,
  };
}
