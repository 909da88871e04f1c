import type { StacItemCollection, StacLink } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { findAssetsOf } from '@portal/read-model-portal-objects';
import type { FieldsSelection } from './fields-request.js';
import { selectFields } from './item-fields.js';
import { stacItem } from './item-json.js';
import type { ItemPage } from './item-query.js';
import type { ItemSort } from './item-sort.js';
import { encodeItemToken } from './search-token.js';
import { GEOJSON_TYPE, JSON_TYPE, type StacUrls } from './stac-links.js';

/** How the page was asked for, so its `next` link asks the same way for what follows. */
export type PageRequest =
  | { readonly method: 'GET'; readonly url: string; readonly query: Readonly<Record<string, string>> }
  | { readonly method: 'POST'; readonly url: string; readonly body: Readonly<Record<string, unknown>> };

function withQuery(url: string, query: Readonly<Record<string, string>>): string {
  const search = new URLSearchParams(query).toString();
  return search === '' ? url : `${url}?${search}`;
}

/**
 * `next` repeats the request with the token of the page's last item, `prev` with the (backwards) token
 * of its first: the same query string for a GET; for a POST, the whole body with `token` set
 * (`merge: false`: a client sends exactly that body).
 */
export function pageLink(request: PageRequest, rel: 'next' | 'prev', token: string): StacLink {
  if (request.method === 'GET') {
    return {
      rel,
      href: withQuery(request.url, { ...request.query, token }),
      type: GEOJSON_TYPE,
      method: 'GET',
    };
  }
  return {
    rel,
    href: request.url,
    type: GEOJSON_TYPE,
    method: 'POST',
    body: { ...request.body, token },
    merge: false,
  };
}

function selfLink(request: PageRequest): StacLink {
  return request.method === 'GET'
    ? { rel: 'self', href: withQuery(request.url, request.query), type: GEOJSON_TYPE }
    : { rel: 'self', href: request.url, type: GEOJSON_TYPE, method: 'POST', body: { ...request.body } };
}

/** How the page is read: its order (the `next` token's keys) and, with `fields`, what each item keeps. */
export interface PageShape {
  readonly sort: ItemSort;
  readonly fields: FieldsSelection | null;
}

/**
 * A page of items as a GeoJSON FeatureCollection. `numberReturned` is given; `numberMatched` is not
 * (optional in STAC): counting every match would cost what the page is built to avoid (docs/stac.md).
 */
export async function itemCollection(
  pool: Pool,
  page: ItemPage,
  shape: PageShape,
  request: PageRequest,
  urls: StacUrls,
  baseUrl: string,
  extraLinks: readonly StacLink[] = [],
): Promise<StacItemCollection> {
  const assets = await findAssetsOf(
    pool,
    page.rows.map((row) => row.id),
  );
  const first = page.rows.at(0);
  const last = page.rows.at(-1);
  return {
    type: 'FeatureCollection',
    features: page.rows.map((row) => {
      const item = stacItem(row, assets.get(row.id) ?? [], urls, baseUrl);
      return shape.fields === null ? item : selectFields(item, shape.fields);
    }),
    links: [
      selfLink(request),
      { rel: 'root', href: urls.root, type: JSON_TYPE },
      ...extraLinks,
      ...(page.prev && first !== undefined
        ? [pageLink(request, 'prev', encodeItemToken(shape.sort, first.sort_keys, 'prev'))]
        : []),
      ...(page.next && last !== undefined
        ? [pageLink(request, 'next', encodeItemToken(shape.sort, last.sort_keys))]
        : []),
    ],
    numberReturned: page.rows.length,
  };
}
