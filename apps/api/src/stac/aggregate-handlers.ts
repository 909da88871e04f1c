import type { Request } from 'express';
import {
  stacAggregateBodySchema,
  stacAggregateQuerySchema,
  stacCollectionAggregateBodySchema,
  stacCollectionAggregateQuerySchema,
  type StacAggregateBody,
  type StacAggregateQuery,
  type StacAggregationCollection,
  type StacAggregations,
  type StacLink,
} from '@portal/contracts';
import type { CollectionKey } from '@portal/read-model-portal-objects';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { baseUrlOf } from '../http/base-url.js';
import { parseInput } from '../http/validate.js';
import { aggregationList } from './aggregation-catalog.js';
import { aggregationFromBody, aggregationFromQuery, type AggregationRequest } from './aggregation-request.js';
import { computeAggregation } from './aggregation-sql.js';
import type { ItemCondition } from './item-query.js';
import { matchFromBody, matchFromQuery, type ItemMatch } from './item-search-request.js';
import { conditionsFromBody, conditionsFromQuery } from './search-conditions.js';
import { definedOnly, resolveCollections } from './search-handlers.js';
import { JSON_TYPE, stacUrls, type StacUrls } from './stac-links.js';

/**
 * The aggregation extension (docs/stac.md, "Aggregation"): the search's parameters and visibility,
 * counted instead of paged. Every parameter is checked before any statement runs.
 */

/** Where the aggregate was asked: the whole search, or one collection's items (the path's collection). */
export type AggregateScope =
  { readonly kind: 'root' } | { readonly kind: 'collection'; readonly key: CollectionKey };

function scopeLinks(urls: StacUrls, scope: AggregateScope): StacLink[] {
  return [
    { rel: 'root', href: urls.root, type: JSON_TYPE },
    ...(scope.kind === 'collection'
      ? [{ rel: 'collection', href: urls.collection(scope.key.stacId), type: JSON_TYPE }]
      : []),
  ];
}

async function aggregate(
  deps: ApiDependencies,
  req: Request,
  parts: { match: ItemMatch; extra: readonly ItemCondition[]; request: AggregationRequest },
  self: StacLink,
  scope: AggregateScope,
): Promise<StacAggregationCollection> {
  const aggregationScope = {
    match: await resolveCollections(deps, parts.match, req),
    principals: principalsOf(req),
    extra: parts.extra,
    request: parts.request,
  };
  const aggregations = await Promise.all(
    parts.request.names.map((name) => computeAggregation(deps.pool, name, aggregationScope)),
  );
  return {
    type: 'AggregationCollection',
    aggregations,
    links: [self, ...scopeLinks(stacUrls(baseUrlOf(req, deps.config)), scope)],
  };
}

const aggregateUrl = (urls: StacUrls, scope: AggregateScope) =>
  scope.kind === 'root' ? urls.aggregate : urls.collectionAggregate(scope.key.stacId);

/** `GET …/aggregate`. */
export async function aggregateByGet(
  deps: ApiDependencies,
  req: Request,
  scope: AggregateScope,
): Promise<StacAggregationCollection> {
  const query: StacAggregateQuery =
    scope.kind === 'root'
      ? parseInput(stacAggregateQuerySchema, req.query, 'query')
      : parseInput(stacCollectionAggregateQuerySchema, req.query, 'query');
  const request = aggregationFromQuery(query);
  const match = matchFromQuery(query);
  const parts = {
    match: scope.kind === 'root' ? match : { ...match, collections: [scope.key.id] },
    extra: conditionsFromQuery(query),
    request,
  };
  const url = aggregateUrl(stacUrls(baseUrlOf(req, deps.config)), scope);
  const search = new URLSearchParams(definedOnly(query)).toString();
  const self = { rel: 'self', href: search === '' ? url : `${url}?${search}`, type: JSON_TYPE };
  return aggregate(deps, req, parts, self, scope);
}

/** `POST …/aggregate`: the same as a JSON body. */
export async function aggregateByPost(
  deps: ApiDependencies,
  req: Request,
  scope: AggregateScope,
): Promise<StacAggregationCollection> {
  // Under a collection the path names it: a body naming collections too answers 400 (strict schema).
  const body: StacAggregateBody =
    scope.kind === 'root'
      ? parseInput(stacAggregateBodySchema, req.body ?? {}, 'body')
      : parseInput(stacCollectionAggregateBodySchema, req.body ?? {}, 'body');
  const request = aggregationFromBody(body);
  const match = matchFromBody(body);
  const parts = {
    match: scope.kind === 'root' ? match : { ...match, collections: [scope.key.id] },
    extra: conditionsFromBody(body),
    request,
  };
  const url = aggregateUrl(stacUrls(baseUrlOf(req, deps.config)), scope);
  const self: StacLink = { rel: 'self', href: url, type: JSON_TYPE, method: 'POST', body: { ...body } };
  return aggregate(deps, req, parts, self, scope);
}

/** `GET …/aggregations`: every aggregation, at the root and for any collection alike. */
export function aggregationsOf(urls: StacUrls, scope: AggregateScope): StacAggregations {
  const self = scope.kind === 'root' ? urls.aggregations : urls.collectionAggregations(scope.key.stacId);
  return {
    aggregations: aggregationList(),
    links: [{ rel: 'self', href: self, type: JSON_TYPE }, ...scopeLinks(urls, scope)],
  };
}
