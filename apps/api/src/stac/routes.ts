import type { Request, Router } from 'express';
import { stacBrowseQuerySchema, stacChildrenQuerySchema, stacItemsQuerySchema } from '@portal/contracts';
import { isUuid } from '@portal/domain';
import { requireFound } from '@portal/commands';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { baseUrlOf } from '../http/base-url.js';
import { etagOf } from '../http/consistency.js';
import { sendJson } from '../http/send-json.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { findVisibleObject } from '@portal/read-model-portal-objects';
import { aggregateByGet, aggregateByPost, aggregationsOf } from './aggregate-handlers.js';
import { browsePage, catalogContents, MAX_CATALOG_LINKS, rootContents } from './browse-pages.js';
import { conformsTo } from './conformance.js';
import { collectionQueryablesSchema } from './collection-queryables.js';
import { collectionSearch } from './collection-search-handler.js';
import { childrenSort, collectionSortablesSchema } from './collection-sort.js';
import { containerListPage } from './container-list.js';
import { stacCatalog, stacChild, stacCollection } from './container-json.js';
import { parseFieldsText } from './fields-request.js';
import { itemCollectionParts } from './item-collection.js';
import { itemJsonText } from './item-text.js';
import { findVisibleStoredItem, findVisibleStoredItemIn, searchItems } from './item-query.js';
import { itemQueryables } from './queryables.js';
import { itemSortables } from './sortables.js';
import { searchFromQuery } from './item-search-request.js';
import { landingPage } from './landing-page.js';
import { pathParam, visibleCollection, visibleCollectionRow } from './path-collection.js';
import { conditionsFromQuery } from './search-conditions.js';
import { definedOnly, searchByGet, searchByPost } from './search-handlers.js';
import { GEOJSON_TYPE, JSON_TYPE, SCHEMA_JSON_TYPE, STAC_PATH, stacUrls } from './stac-links.js';
import { deleteItem } from './transactions/item-delete.js';
import { addItems } from './transactions/item-transactions.js';
import { patchItem, replaceItem } from './transactions/item-replace.js';
import {
  addCollection,
  deleteCollection,
  patchCollection,
  replaceCollection,
} from './transactions/collection-transactions.js';

/** STAC API 1.0 over the read model (docs/stac.md): the same visibility as every other read. */
export function stacRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  const context = (req: Request) => {
    const baseUrl = baseUrlOf(req, deps.config);
    return { baseUrl, urls: stacUrls(baseUrl), principals: principalsOf(req) };
  };
  /** A visible catalog by the path's id; anything else (a malformed id too) is a 404. */
  const catalogOf = async (id: string, principals: string[]) =>
    requireFound(
      isUuid(id) ? await findVisibleObject(deps.pool, id.toLowerCase(), principals, 'catalog') : null,
      `catalog ${id}`,
    );

  /** A page of children (of the landing page, or a catalog), oldest first, with `prev` and `next`. */
  const childrenPage = async (req: Request, parentId: string | null, selfUrl: string) => {
    const { urls, baseUrl, principals } = context(req);
    const query = parseInput(stacChildrenQuerySchema, req.query, 'query');
    const page = await containerListPage(deps.pool, principals, urls, {
      scope: { kind: 'children', parentId },
      selfUrl,
      query,
      sort: childrenSort,
      conditions: [],
      // A first page holds what the container's own `child` links name (its first 1,000 children, oldest
      // first), so the two lists agree: the STAC API validator compares them without paging.
      defaultLimit: MAX_CATALOG_LINKS,
    });
    return { children: page.rows.map((row) => stacChild(row, urls, baseUrl)), links: page.links };
  };

  route(router, STAC_PATH, {
    get: async (req, res) => {
      const { urls, principals } = context(req);
      const root = await rootContents(deps.pool, principals, urls);
      res.json(landingPage(urls, root.children, root.continuations));
    },
  });
  route(router, `${STAC_PATH}/conformance`, {
    get: (_req, res) => {
      res.json({ conformsTo: [...conformsTo] });
    },
  });

  route(router, `${STAC_PATH}/collections`, {
    get: async (req, res) => {
      res.json(await collectionSearch(deps.pool, req, context(req)));
    },
    post: addCollection(deps),
  });
  route(router, `${STAC_PATH}/collections/:collectionId`, {
    get: async (req, res) => {
      const { urls, baseUrl } = context(req);
      const row = await visibleCollectionRow(deps, req);
      res.json(stacCollection(row, urls, baseUrl));
    },
    put: replaceCollection(deps),
    patch: patchCollection(deps),
    delete: deleteCollection(deps),
  });
  route(router, `${STAC_PATH}/collections/:collectionId/items`, {
    get: async (req, res) => {
      const { urls, baseUrl, principals } = context(req);
      const collection = await visibleCollection(deps, req);
      const query = definedOnly(parseInput(stacItemsQuerySchema, req.query, 'query'));
      const named = searchFromQuery(query);
      // `collections` narrows the path's collection: to itself when it is named (by its name or its
      // UUID), to nothing otherwise.
      const alsoNamed =
        named.collections?.some((id) => id === collection.stacId || id.toLowerCase() === collection.id) ??
        true;
      const search = { ...named, collections: alsoNamed ? [collection.id] : [] };
      const extra = conditionsFromQuery(query);
      const fields = query.fields === undefined ? null : parseFieldsText(query.fields);
      const page = await searchItems(
        deps.pool,
        search,
        principals,
        extra,
        fields === null ? 'stored' : 'rows',
      );
      const { token: _token, ...rest } = query;
      const request = { method: 'GET' as const, url: urls.items(collection.stacId), query: rest };
      const collectionLink = { rel: 'collection', href: urls.collection(collection.stacId), type: JSON_TYPE };
      const parts = await itemCollectionParts(
        deps.pool,
        page,
        { sort: search.sort, fields },
        request,
        urls,
        baseUrl,
        [collectionLink],
      );
      sendJson(res, GEOJSON_TYPE, parts);
    },
    post: addItems(deps),
  });
  route(router, `${STAC_PATH}/collections/:collectionId/items/:itemId`, {
    get: async (req, res) => {
      const { urls, baseUrl, principals } = context(req);
      const collection = await visibleCollection(deps, req);
      const itemId = pathParam(req, 'itemId');
      const row = await findVisibleStoredItemIn(deps.pool, collection.id, itemId, principals);
      const item = requireFound(row, `item ${itemId} in collection ${collection.stacId}`);
      const text = await itemJsonText(deps.pool, item, principals, urls, baseUrl);
      // The revision, as the portal API gives it: what `If-Match` on PUT, PATCH and DELETE compares.
      res.setHeader('ETag', etagOf(BigInt(item.version)));
      res.type(GEOJSON_TYPE).send(text);
    },
    put: replaceItem(deps),
    patch: patchItem(deps),
    delete: deleteItem(deps),
  });
  route(router, `${STAC_PATH}/items/:itemId`, {
    get: async (req, res) => {
      const { urls, baseUrl, principals } = context(req);
      const itemId = pathParam(req, 'itemId');
      const item = requireFound(await findVisibleStoredItem(deps.pool, itemId, principals), `item ${itemId}`);
      res.type(GEOJSON_TYPE).send(await itemJsonText(deps.pool, item, principals, urls, baseUrl));
    },
  });

  route(router, `${STAC_PATH}/search`, {
    get: async (req, res) => {
      sendJson(res, GEOJSON_TYPE, await searchByGet(deps, req));
    },
    post: async (req, res) => {
      sendJson(res, GEOJSON_TYPE, await searchByPost(deps, req));
    },
  });

  route(router, `${STAC_PATH}/queryables`, {
    get: (req, res) => {
      const { urls } = context(req);
      res.type(SCHEMA_JSON_TYPE).json(itemQueryables(urls.queryables, 'STAC item search'));
    },
  });
  route(router, `${STAC_PATH}/collections/:collectionId/queryables`, {
    get: async (req, res) => {
      const { urls } = context(req);
      const { stacId } = await visibleCollection(deps, req);
      const title = `Items of collection ${stacId}`;
      res.type(SCHEMA_JSON_TYPE).json(itemQueryables(urls.collectionQueryables(stacId), title));
    },
  });

  route(router, `${STAC_PATH}/sortables`, {
    get: (req, res) => {
      const { urls } = context(req);
      res.type(SCHEMA_JSON_TYPE).json(itemSortables(urls.sortables, 'STAC item search'));
    },
  });
  route(router, `${STAC_PATH}/collection-queryables`, {
    get: (req, res) => {
      const { urls } = context(req);
      res.type(SCHEMA_JSON_TYPE).json(collectionQueryablesSchema(urls.collectionSearchQueryables));
    },
  });
  route(router, `${STAC_PATH}/collection-sortables`, {
    get: (req, res) => {
      const { urls } = context(req);
      res.type(SCHEMA_JSON_TYPE).json(collectionSortablesSchema(urls.collectionSearchSortables));
    },
  });
  route(router, `${STAC_PATH}/collections/:collectionId/sortables`, {
    get: async (req, res) => {
      const { urls } = context(req);
      const { stacId } = await visibleCollection(deps, req);
      const title = `Items of collection ${stacId}`;
      res.type(SCHEMA_JSON_TYPE).json(itemSortables(urls.collectionSortables(stacId), title));
    },
  });

  route(router, `${STAC_PATH}/aggregate`, {
    get: async (req, res) => {
      res.json(await aggregateByGet(deps, req, { kind: 'root' }));
    },
    post: async (req, res) => {
      res.json(await aggregateByPost(deps, req, { kind: 'root' }));
    },
  });
  route(router, `${STAC_PATH}/aggregations`, {
    get: (req, res) => {
      res.json(aggregationsOf(context(req).urls, { kind: 'root' }));
    },
  });
  route(router, `${STAC_PATH}/collections/:collectionId/aggregate`, {
    get: async (req, res) => {
      const key = await visibleCollection(deps, req);
      res.json(await aggregateByGet(deps, req, { kind: 'collection', key }));
    },
    post: async (req, res) => {
      const key = await visibleCollection(deps, req);
      res.json(await aggregateByPost(deps, req, { kind: 'collection', key }));
    },
  });
  route(router, `${STAC_PATH}/collections/:collectionId/aggregations`, {
    get: async (req, res) => {
      const { urls } = context(req);
      const key = await visibleCollection(deps, req);
      res.json(aggregationsOf(urls, { kind: 'collection', key }));
    },
  });

  route(router, `${STAC_PATH}/children`, {
    get: async (req, res) => {
      res.json(await childrenPage(req, null, context(req).urls.children));
    },
  });
  route(router, `${STAC_PATH}/catalogs/:catalogId`, {
    get: async (req, res) => {
      const { urls, baseUrl, principals } = context(req);
      const row = await catalogOf(pathParam(req, 'catalogId'), principals);
      res.json(stacCatalog(row, urls, baseUrl, await catalogContents(deps.pool, row, principals, urls)));
    },
  });
  route(router, `${STAC_PATH}/browse`, {
    get: async (req, res) => {
      const { urls, principals } = context(req);
      const query = parseInput(stacBrowseQuerySchema, req.query, 'query');
      res.json(await browsePage(deps.pool, { kind: 'root' }, query, principals, urls));
    },
  });
  route(router, `${STAC_PATH}/catalogs/:catalogId/browse`, {
    get: async (req, res) => {
      const { urls, principals } = context(req);
      const row = await catalogOf(pathParam(req, 'catalogId'), principals);
      const query = parseInput(stacBrowseQuerySchema, req.query, 'query');
      res.json(await browsePage(deps.pool, { kind: 'catalog', row }, query, principals, urls));
    },
  });
  route(router, `${STAC_PATH}/collections/:collectionId/browse`, {
    get: async (req, res) => {
      const { urls, principals } = context(req);
      const row = await visibleCollectionRow(deps, req);
      const query = parseInput(stacBrowseQuerySchema, req.query, 'query');
      res.json(await browsePage(deps.pool, { kind: 'collection', row }, query, principals, urls));
    },
  });
  route(router, `${STAC_PATH}/catalogs/:catalogId/children`, {
    get: async (req, res) => {
      const { urls, principals } = context(req);
      const row = await catalogOf(pathParam(req, 'catalogId'), principals);
      res.json(await childrenPage(req, row.id, urls.catalogChildren(row.id)));
    },
  });
  return router;
}
