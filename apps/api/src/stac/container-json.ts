import { STAC_VERSION, type StacCatalog, type StacCollection, type StacLink } from '@portal/contracts';
import { extentOf } from '../collections/collection-record.js';
import { validExtentTime } from './collection-fields-sql.js';
import {
  PORTAL_ITEM_LINK_TITLE,
  portalItemUrl,
  stacIdOf,
  type PortalObjectRow,
} from '@portal/read-model-portal-objects';
import {
  GEOJSON_TYPE,
  JSON_TYPE,
  portalLink,
  QUERYABLES_REL,
  SCHEMA_JSON_TYPE,
  SORTABLES_REL,
  type BrowseKind,
  type BrowseOwnerPath,
  type StacUrls,
} from './stac-links.js';
import { encodeToken, type PageKey } from './search-token.js';

/** The `child` link to a browse page (the first, with a null token, or one continuing after a key). */
export function browseLink(
  urls: StacUrls,
  owner: BrowseOwnerPath,
  kind: BrowseKind,
  token: string | null,
): StacLink {
  const title =
    kind === 'children' ? 'More catalogs and collections' : token === null ? 'Items' : 'More items';
  return { rel: 'child', href: urls.browse(owner, kind, token), type: JSON_TYPE, title };
}

/** The token a browse page of `kind` continues after `key` with (both lists: creation time, then id). */
export const continueAfter = (kind: BrowseKind, key: PageKey) =>
  encodeToken(kind === 'children' ? 'containers' : 'direct-items', key);

/** Where a container sits: under a catalog, or at the root level (whose STAC parent is the landing page). */
function parentLink(row: PortalObjectRow, urls: StacUrls): StacLink {
  return {
    rel: 'parent',
    href: row.parent_id === null ? urls.root : urls.catalog(row.parent_id),
    type: JSON_TYPE,
  };
}

/**
 * The collection's extent as STAC writes it (the same boxes and intervals, in mutable arrays). A stored
 * time that is no valid one (an extent written before the contract checked the range) is an open end.
 */
function stacExtent(row: PortalObjectRow): StacCollection['extent'] {
  const { spatial, temporal } = extentOf(row);
  return {
    spatial: { bbox: spatial.bbox.map((box) => [...box]) },
    temporal: {
      interval: temporal.interval.map(([start, end]) => [validExtentTime(start), validExtentTime(end)]),
    },
  };
}

/** A portal collection as a STAC Collection: its extent given on create, else computed from its items. */
export function stacCollection(row: PortalObjectRow, urls: StacUrls, baseUrl: string): StacCollection {
  // Its STAC id: the name its client gave it, else its UUID (docs/stac.md, "Collection ids").
  const id = stacIdOf(row);
  return {
    type: 'Collection',
    stac_version: STAC_VERSION,
    stac_extensions: [],
    id,
    title: row.title,
    description: row.description ?? '',
    keywords: row.keywords ?? [],
    license: row.license ?? 'other',
    extent: stacExtent(row),
    links: [
      { rel: 'self', href: urls.collection(id), type: JSON_TYPE },
      { rel: 'root', href: urls.root, type: JSON_TYPE },
      parentLink(row, urls),
      { rel: 'items', href: urls.items(id), type: GEOJSON_TYPE },
      // Its items as `item` links, page by page (browsing: docs/stac.md); none in the collection's JSON.
      browseLink(urls, { kind: 'collection', id }, 'items', null),
      { rel: QUERYABLES_REL, href: urls.collectionQueryables(id), type: SCHEMA_JSON_TYPE },
      { rel: SORTABLES_REL, href: urls.collectionSortables(id), type: SCHEMA_JSON_TYPE },
      { rel: 'aggregate', href: urls.collectionAggregate(id), type: JSON_TYPE, method: 'GET' },
      { rel: 'aggregate', href: urls.collectionAggregate(id), type: JSON_TYPE, method: 'POST' },
      { rel: 'aggregations', href: urls.collectionAggregations(id), type: JSON_TYPE },
      // The portal's record of the collection, by its UUID (as an item links its own): its history,
      // audit, shares and moves start there, and a collection's name does not lead there by itself.
      {
        rel: 'alternate',
        href: portalItemUrl(row.id, baseUrl),
        type: JSON_TYPE,
        title: PORTAL_ITEM_LINK_TITLE,
      },
      ...row.links.map((link) => portalLink(link, baseUrl)),
    ],
  };
}

/** What a catalog links to besides itself: its children, and the items directly under it. */
export interface CatalogContents {
  readonly children: readonly PortalObjectRow[];
  readonly itemIds: readonly string[];
  /** `child` links to the browse pages of the children and items past these. */
  readonly continuations: readonly StacLink[];
}

/**
 * A portal catalog as a STAC Catalog. With `contents`, the `child` and `item` links a client follows to
 * browse; without (a catalog listed among others), only its own links.
 */
export function stacCatalog(
  row: PortalObjectRow,
  urls: StacUrls,
  baseUrl: string,
  contents?: CatalogContents,
): StacCatalog {
  return {
    type: 'Catalog',
    stac_version: STAC_VERSION,
    stac_extensions: [],
    id: row.id,
    title: row.title,
    description: row.description ?? '',
    links: [
      { rel: 'self', href: urls.catalog(row.id), type: JSON_TYPE },
      { rel: 'root', href: urls.root, type: JSON_TYPE },
      parentLink(row, urls),
      { rel: 'children', href: urls.catalogChildren(row.id), type: JSON_TYPE },
      ...(contents?.children ?? []).map((child) => childLink(child, urls)),
      ...(contents?.itemIds ?? []).map((id) => ({
        rel: 'item',
        href: urls.item(id, null),
        type: GEOJSON_TYPE,
      })),
      ...(contents?.continuations ?? []),
      ...row.links.map((link) => portalLink(link, baseUrl)),
    ],
  };
}

/** A `child` link to a catalog or a collection, titled as the object is. */
export function childLink(row: PortalObjectRow, urls: StacUrls): StacLink {
  return {
    rel: 'child',
    href: row.kind === 'collection' ? urls.collection(stacIdOf(row)) : urls.catalog(row.id),
    type: JSON_TYPE,
    title: row.title,
  };
}

/** A child as the children endpoints list it: a Collection or a Catalog. */
export function stacChild(
  row: PortalObjectRow,
  urls: StacUrls,
  baseUrl: string,
): StacCatalog | StacCollection {
  return row.kind === 'collection' ? stacCollection(row, urls, baseUrl) : stacCatalog(row, urls, baseUrl);
}
