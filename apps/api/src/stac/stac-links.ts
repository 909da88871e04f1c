import { itemUrls } from '@portal/read-model-portal-objects';

/**
 * Where each STAC resource lives, as absolute URLs from the service's base (`PUBLIC_BASE_URL`, or the
 * local address in development: http/base-url.ts). Every STAC link is written through these.
 */
export { GEOJSON_TYPE, JSON_TYPE, STAC_PATH, portalLink } from '@portal/read-model-portal-objects';
export const SCHEMA_JSON_TYPE = 'application/schema+json';
export const QUERYABLES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/queryables';
/** The sort extension's rel for `/sortables`. */
export const SORTABLES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/sortables';
export const OPENAPI_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

export interface StacUrls {
  readonly root: string;
  readonly conformance: string;
  readonly collections: string;
  readonly search: string;
  readonly children: string;
  readonly queryables: string;
  readonly sortables: string;
  /** The collection search's queryables and sortables (not `/queryables`: those are the items'). */
  readonly collectionSearchQueryables: string;
  readonly collectionSearchSortables: string;
  readonly aggregate: string;
  readonly aggregations: string;
  readonly serviceDesc: string;
  /** The API reference as an HTML page. */
  readonly serviceDoc: string;
  collection(id: string): string;
  items(collectionId: string): string;
  collectionQueryables(collectionId: string): string;
  collectionSortables(collectionId: string): string;
  collectionAggregate(collectionId: string): string;
  collectionAggregations(collectionId: string): string;
  item(id: string, collectionId: string | null): string;
  catalog(id: string): string;
  catalogChildren(id: string): string;
  /** A browse page of the landing page (`null`), a catalog or a collection. */
  browse(owner: BrowseOwnerPath, kind: BrowseKind, token: string | null): string;
}

/** What a browse page links: child catalogs and collections, or items. */
export type BrowseKind = 'children' | 'items';

/** Whose links a browse page continues: the landing page, a catalog or a collection. */
export type BrowseOwnerPath =
  { readonly kind: 'root' } | { readonly kind: 'catalog' | 'collection'; readonly id: string };

export function stacUrls(baseUrl: string): StacUrls {
  // Those an item links to are the ones the projector stores in each item's JSON.
  const { root, collection, catalog, item } = itemUrls(baseUrl);
  return {
    root,
    conformance: `${root}/conformance`,
    collections: `${root}/collections`,
    search: `${root}/search`,
    children: `${root}/children`,
    queryables: `${root}/queryables`,
    sortables: `${root}/sortables`,
    collectionSearchQueryables: `${root}/collection-queryables`,
    collectionSearchSortables: `${root}/collection-sortables`,
    aggregate: `${root}/aggregate`,
    aggregations: `${root}/aggregations`,
    serviceDesc: `${baseUrl}/api/v1/openapi.json`,
    serviceDoc: `${baseUrl}/api/v1/docs`,
    collection,
    items: (collectionId) => `${collection(collectionId)}/items`,
    collectionQueryables: (collectionId) => `${collection(collectionId)}/queryables`,
    collectionSortables: (collectionId) => `${collection(collectionId)}/sortables`,
    collectionAggregate: (collectionId) => `${collection(collectionId)}/aggregate`,
    collectionAggregations: (collectionId) => `${collection(collectionId)}/aggregations`,
    item,
    catalog,
    catalogChildren: (id) => `${root}/catalogs/${id}/children`,
    browse: (owner, kind, token) => {
      const path =
        owner.kind === 'root' ? root : owner.kind === 'catalog' ? catalog(owner.id) : collection(owner.id);
      const query = new URLSearchParams({ kind, ...(token === null ? {} : { token }) });
      return `${path}/browse?${query.toString()}`;
    },
  };
}
