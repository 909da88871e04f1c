import type { Request } from 'express';
import { stacCollectionsQuerySchema, type StacCollection, type StacLink } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import type { Principals } from '@portal/read-model-portal-objects';
import { parseInput } from '../http/validate.js';
import { COLLECTION_FIELDS_SHAPE } from './collection-fields.js';
import { collectionSearchConditions } from './collection-search.js';
import { collectionSort } from './collection-sort.js';
import { containerListPage } from './container-list.js';
import { stacCollection } from './container-json.js';
import { parseFieldsText } from './fields-request.js';
import { selectFields } from './item-fields.js';
import { parseSortbyText } from './sort-request.js';
import { QUERYABLES_REL, SCHEMA_JSON_TYPE, SORTABLES_REL, type StacUrls } from './stac-links.js';

/**
 * `GET /collections` with the collection search extension (docs/stac.md, "Collection search"): every
 * parameter is checked (400) before the page is read; `fields` cuts each collection after it is built.
 * The page links the collection search's queryables and sortables, as the extension asks.
 */
export async function collectionSearch(
  pool: Pool,
  req: Request,
  context: { readonly urls: StacUrls; readonly baseUrl: string; readonly principals: Principals },
): Promise<{
  collections: (StacCollection | Record<string, unknown>)[];
  links: StacLink[];
  numberReturned: number;
}> {
  const { urls, baseUrl, principals } = context;
  const query = parseInput(stacCollectionsQuerySchema, req.query, 'query');
  const conditions = collectionSearchConditions(query);
  const sort = collectionSort(query.sortby === undefined ? null : parseSortbyText(query.sortby));
  const fields = query.fields === undefined ? null : parseFieldsText(query.fields, COLLECTION_FIELDS_SHAPE);
  const page = await containerListPage(pool, principals, urls, {
    scope: { kind: 'collections' },
    selfUrl: urls.collections,
    query,
    sort,
    conditions,
  });
  return {
    collections: page.rows.map((row) => {
      const collection = stacCollection(row, urls, baseUrl);
      return fields === null ? collection : selectFields(collection, fields);
    }),
    links: [
      ...page.links,
      { rel: QUERYABLES_REL, href: urls.collectionSearchQueryables, type: SCHEMA_JSON_TYPE },
      { rel: SORTABLES_REL, href: urls.collectionSearchSortables, type: SCHEMA_JSON_TYPE },
    ],
    numberReturned: page.rows.length,
  };
}
