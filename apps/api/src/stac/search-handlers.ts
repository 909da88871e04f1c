import type { Request } from 'express';
import { isUuid } from '@portal/domain';
import { stacSearchBodySchema, stacSearchQuerySchema } from '@portal/contracts';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { baseUrlOf } from '../http/base-url.js';
import { parseInput } from '../http/validate.js';
import { findVisibleCollectionKeys } from '@portal/read-model-portal-objects';
import { parseFieldsBody, parseFieldsText } from './fields-request.js';
import { itemCollectionParts, type PageRequest, type PageShape } from './item-collection.js';
import { searchItems, type ItemCondition } from './item-query.js';
import { searchFromBody, searchFromQuery, type ItemMatch, type ItemSearch } from './item-search-request.js';
import { conditionsFromBody, conditionsFromQuery } from './search-conditions.js';
import { badParameter } from './stac-problem.js';
import { stacUrls } from './stac-links.js';

/**
 * A search's `collections` as the UUIDs of the collections they name (by UUID or by STAC name: docs/stac.md,
 * "Collection ids"). Every one must be a collection the caller may read: an unknown one answers 400 (a
 * typo would otherwise look like an empty result). Hidden and missing collections get the same answer.
 */
export async function resolveCollections<T extends ItemMatch>(
  deps: ApiDependencies,
  search: T,
  req: Request,
): Promise<T> {
  if (search.collections === null) return search;
  const found = await findVisibleCollectionKeys(deps.pool, search.collections, principalsOf(req));
  const uuidOf = new Map<string, string>();
  for (const key of found) {
    uuidOf.set(key.id, key.id);
    uuidOf.set(key.stacId, key.id);
  }
  const uuids = search.collections.map((id) => uuidOf.get(isUuid(id) ? id.toLowerCase() : id));
  const unknown = search.collections.filter((_id, index) => uuids[index] === undefined);
  if (unknown.length > 0) {
    throw badParameter(
      'collections',
      `no such collection: ${unknown.slice(0, 10).join(', ')}`,
      'UNKNOWN_COLLECTION',
    );
  }
  return { ...search, collections: uuids.filter((id) => id !== undefined) };
}

async function runSearch(
  deps: ApiDependencies,
  req: Request,
  search: ItemSearch,
  request: PageRequest,
  extra: readonly ItemCondition[],
  shape: PageShape,
): Promise<string[]> {
  const reading = shape.fields === null ? 'stored' : 'rows';
  const resolved = await resolveCollections(deps, search, req);
  const page = await searchItems(deps.pool, resolved, principalsOf(req), extra, reading);
  const baseUrl = baseUrlOf(req, deps.config);
  return itemCollectionParts(deps.pool, page, shape, request, stacUrls(baseUrl), baseUrl);
}

/** `GET /api/v1/stac/search`: the page as the parts of its JSON text. */
export async function searchByGet(deps: ApiDependencies, req: Request): Promise<string[]> {
  const query = parseInput(stacSearchQuerySchema, req.query, 'query');
  const search = searchFromQuery(query);
  const extra = conditionsFromQuery(query);
  const fields = query.fields === undefined ? null : parseFieldsText(query.fields);
  const { token: _token, ...rest } = query;
  const urls = stacUrls(baseUrlOf(req, deps.config));
  const request = { method: 'GET' as const, url: urls.search, query: definedOnly(rest) };
  return runSearch(deps, req, search, request, extra, { sort: search.sort, fields });
}

/** `POST /api/v1/stac/search`: the same search, its `next` link a POST with the whole body. */
export async function searchByPost(deps: ApiDependencies, req: Request): Promise<string[]> {
  const body = parseInput(stacSearchBodySchema, req.body ?? {}, 'body');
  const search = searchFromBody(body);
  const extra = conditionsFromBody(body);
  const fields = body.fields === undefined ? null : parseFieldsBody(body.fields);
  const { token: _token, ...rest } = body;
  const urls = stacUrls(baseUrlOf(req, deps.config));
  const request = { method: 'POST' as const, url: urls.search, body: rest };
  return runSearch(deps, req, search, request, extra, { sort: search.sort, fields });
}

/** The given values of a parsed query (zod leaves absent ones out already; this narrows the type). */
export function definedOnly(query: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
