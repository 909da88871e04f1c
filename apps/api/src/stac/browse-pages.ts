import { STAC_VERSION, type StacCatalog, type StacLink } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { itemUrl, stacIdOf, type Principals, type PortalObjectRow } from '@portal/read-model-portal-objects';
import { HttpProblem } from '../http/problem.js';
import { browseLink, childLink, continueAfter, type CatalogContents } from './container-json.js';
import { directItems, listContainers } from './container-query.js';
import { decodeToken } from './search-token.js';
import {
  GEOJSON_TYPE,
  JSON_TYPE,
  type BrowseKind,
  type BrowseOwnerPath,
  type StacUrls,
} from './stac-links.js';

/**
 * Browsing (docs/stac.md, "Browsing"): every item is reachable from the landing page by `child` and
 * `item` links. A container's own JSON links its first MAX_CATALOG_LINKS children and direct items (a
 * collection: none, so a list of collections stays small); the rest are on browse pages, synthetic
 * Catalogs of at most MAX_CATALOG_LINKS links of one kind, each linking the next by a `child` link.
 */

/** How many `child` (or `item`) links one catalog page writes. */
export const MAX_CATALOG_LINKS = 1000;

/** The container whose links a browse page continues, as read (visible to the caller). */
export type BrowseOwner =
  { readonly kind: 'root' } | { readonly kind: 'catalog' | 'collection'; readonly row: PortalObjectRow };

/** The owner as its STAC paths name it (a collection by its STAC id: its name, else its UUID). */
const pathOf = (owner: BrowseOwner): BrowseOwnerPath =>
  owner.kind === 'root' ? owner : { kind: owner.kind, id: stacIdOf(owner.row) };

/** Collections hold only items; the landing page only catalogs and collections. */
function checkKind(owner: BrowseOwner, kind: BrowseKind): void {
  const allowed: Record<BrowseOwner['kind'], readonly BrowseKind[]> = {
    root: ['children'],
    catalog: ['children', 'items'],
    collection: ['items'],
  };
  if (!allowed[owner.kind].includes(kind)) {
    throw new HttpProblem(
      400,
      `kind: a ${owner.kind === 'root' ? 'landing page' : owner.kind} has no ${kind} to browse`,
      'INVALID_PARAMETER',
    );
  }
}

/** One browse page: a Catalog whose `child` or `item` links continue the owner's, and the next page's link. */
export async function browsePage(
  pool: Pool,
  owner: BrowseOwner,
  query: { readonly kind?: BrowseKind; readonly token?: string },
  principals: Principals,
  urls: StacUrls,
): Promise<StacCatalog> {
  const kind = query.kind ?? (owner.kind === 'collection' ? 'items' : 'children');
  checkKind(owner, kind);
  const after =
    query.token === undefined
      ? null
      : decodeToken(kind === 'children' ? 'containers' : 'direct-items', query.token);
  const path = pathOf(owner);
  const page = { limit: MAX_CATALOG_LINKS, after };
  let links: StacLink[];
  let more: boolean;
  let last: { time: string; id: string } | undefined;
  if (kind === 'children') {
    const parentId = owner.kind === 'root' ? null : owner.row.id;
    const children = await listContainers(pool, { kind: 'children', parentId }, principals, page);
    links = children.rows.map((row) => childLink(row, urls));
    more = children.more;
    const end = children.rows.at(-1);
    last = end === undefined ? undefined : { time: end.key_time, id: end.id };
  } else {
    const row = (owner as Extract<BrowseOwner, { kind: 'catalog' | 'collection' }>).row;
    const items = await directItems(pool, row.id, principals, page);
    const collectionId = owner.kind === 'collection' ? stacIdOf(row) : null;
    links = items.rows.map((item) => ({
      rel: 'item',
      href: itemUrl(item, collectionId, urls),
      type: GEOJSON_TYPE,
    }));
    more = items.more;
    const end = items.rows.at(-1);
    last = end === undefined ? undefined : { time: end.key_time, id: end.id };
  }
  const ownerId = owner.kind === 'root' ? 'root' : stacIdOf(owner.row);
  const ownerTitle = owner.kind === 'root' ? 'The portal' : owner.row.title;
  const parentHref =
    owner.kind === 'root'
      ? urls.root
      : owner.kind === 'catalog'
        ? urls.catalog(owner.row.id)
        : urls.collection(stacIdOf(owner.row));
  return {
    type: 'Catalog',
    stac_version: STAC_VERSION,
    stac_extensions: [],
    id: `${ownerId}-${kind}${after === null ? '' : `-after-${after.id}`}`,
    title: `${ownerTitle}: ${kind === 'children' ? 'catalogs and collections' : 'items'}`,
    description: `A page of the ${kind === 'children' ? 'catalogs and collections' : 'items'} directly under ${ownerTitle}, oldest first; its last child link, when there is one, continues it.`,
    links: [
      { rel: 'self', href: urls.browse(path, kind, query.token ?? null), type: JSON_TYPE },
      { rel: 'root', href: urls.root, type: JSON_TYPE },
      { rel: 'parent', href: parentHref, type: JSON_TYPE },
      ...links,
      ...(more && last !== undefined ? [browseLink(urls, path, kind, continueAfter(kind, last))] : []),
    ],
  };
}

/**
 * What a catalog's own JSON links: its first MAX_CATALOG_LINKS children and direct items, and for each
 * kind with more, a `child` link to the browse page that continues it.
 */
export async function catalogContents(
  pool: Pool,
  catalog: PortalObjectRow,
  principals: Principals,
  urls: StacUrls,
): Promise<CatalogContents> {
  const first = { limit: MAX_CATALOG_LINKS, after: null };
  const [children, items] = await Promise.all([
    listContainers(pool, { kind: 'children', parentId: catalog.id }, principals, first),
    directItems(pool, catalog.id, principals, first),
  ]);
  const path = { kind: 'catalog', id: catalog.id } as const;
  const lastChild = children.rows.at(-1);
  const lastItem = items.rows.at(-1);
  return {
    children: children.rows,
    itemIds: items.rows.map((row) => row.id),
    continuations: [
      ...(children.more && lastChild !== undefined
        ? [
            browseLink(
              urls,
              path,
              'children',
              continueAfter('children', { time: lastChild.key_time, id: lastChild.id }),
            ),
          ]
        : []),
      ...(items.more && lastItem !== undefined
        ? [
            browseLink(
              urls,
              path,
              'items',
              continueAfter('items', { time: lastItem.key_time, id: lastItem.id }),
            ),
          ]
        : []),
    ],
  };
}

/** The landing page's `child` links: the first root-level containers, and the browse page of the rest. */
export async function rootContents(
  pool: Pool,
  principals: Principals,
  urls: StacUrls,
): Promise<{ children: PortalObjectRow[]; continuations: StacLink[] }> {
  const page = await listContainers(pool, { kind: 'children', parentId: null }, principals, {
    limit: MAX_CATALOG_LINKS,
    after: null,
  });
  const last = page.rows.at(-1);
  return {
    children: page.rows,
    continuations:
      page.more && last !== undefined
        ? [
            browseLink(
              urls,
              { kind: 'root' },
              'children',
              continueAfter('children', { time: last.key_time, id: last.id }),
            ),
          ]
        : [],
  };
}
