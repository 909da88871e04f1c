import type { StacLink } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { baseUrlFiller, findAssetsOf, stacItem, type AssetRow } from '@portal/read-model-portal-objects';
import type { FieldsSelection } from './fields-request.js';
import { selectFields } from './item-fields.js';
import type { ItemPage, ItemRow } from './item-query.js';
import type { ItemSort } from './item-sort.js';
import { encodeItemToken } from './search-token.js';
import { sortKeyValues } from './sort-keys-text.js';
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

/** The page's links: self, root, the caller's extra ones, then `prev` and `next` when there are such pages. */
function pageLinks(
  page: ItemPage,
  shape: PageShape,
  request: PageRequest,
  urls: StacUrls,
  extraLinks: readonly StacLink[],
): StacLink[] {
  const first = page.rows.at(0);
  const last = page.rows.at(-1);
  return [
    selfLink(request),
    { rel: 'root', href: urls.root, type: JSON_TYPE },
    ...extraLinks,
    ...(page.prev && first !== undefined
      ? [pageLink(request, 'prev', encodeItemToken(shape.sort, sortKeyValues(first.sort_keys), 'prev'))]
      : []),
    ...(page.next && last !== undefined
      ? [pageLink(request, 'next', encodeItemToken(shape.sort, sortKeyValues(last.sort_keys)))]
      : []),
  ];
}

/** The uploaded assets of the page's items built from rows (items answered from their text need none). */
async function assetsOfRows(pool: Pool, rows: readonly ItemRow[]) {
  return findAssetsOf(
    pool,
    rows.map((row) => row.id),
  );
}

/**
 * A page of items as a GeoJSON FeatureCollection, as the parts of its JSON text (`sendJson` writes them
 * without joining them into one text: src/http/send-json.ts says why): each item's stored JSON with the
 * request's base URL put back where the page has it, the others built and serialized here; the rest of
 * the page serialized once (docs/stac.md, "Stored item JSON"). With `fields`, each item is cut from its
 * object instead. `numberReturned` is given; `numberMatched` is not (optional in STAC): counting every
 * match would cost what the page is built to avoid (docs/stac.md).
 */
export async function itemCollectionParts(
  pool: Pool,
  page: ItemPage,
  shape: PageShape,
  request: PageRequest,
  urls: StacUrls,
  baseUrl: string,
  extraLinks: readonly StacLink[] = [],
): Promise<string[]> {
  const features =
    shape.fields === null
      ? await featureTexts(pool, page, urls, baseUrl)
      : await selectedFeatureTexts(pool, page, shape.fields, urls, baseUrl);
  const links = JSON.stringify(pageLinks(page, shape, request, urls, extraLinks));
  return featureCollectionParts(features, links, page.rows.length);
}

/**
 * The parts of a FeatureCollection's JSON text around its features' texts and its links' JSON, keys in
 * the order of the STAC API's own examples: type, features, links, numberReturned.
 */
export function featureCollectionParts(
  features: readonly string[],
  links: string,
  numberReturned: number,
): string[] {
  const parts = ['{"type":"FeatureCollection","features":['];
  features.forEach((feature, index) => parts.push(index === 0 ? feature : `,${feature}`));
  parts.push(`],"links":${links},"numberReturned":${numberReturned}}`);
  return parts;
}

/** Each item of the page as JSON text: its stored text with the base URL put in, else built from its row. */
async function featureTexts(pool: Pool, page: ItemPage, urls: StacUrls, baseUrl: string): Promise<string[]> {
  const rows = page.rows.flatMap((item) => (item.row === undefined ? [] : [item.row]));
  const assets = rows.length === 0 ? new Map<string, AssetRow[]>() : await assetsOfRows(pool, rows);
  const withBase = baseUrlFiller(baseUrl);
  return page.rows.map((item) =>
    item.row === undefined
      ? withBase(item.stored)
      : JSON.stringify(stacItem(item.row, assets.get(item.row.id) ?? [], urls, baseUrl)),
  );
}

/** Each item of the page cut to the `fields` selection, every item built from its row. */
async function selectedFeatureTexts(
  pool: Pool,
  page: ItemPage,
  fields: FieldsSelection,
  urls: StacUrls,
  baseUrl: string,
): Promise<string[]> {
  const rows = page.rows.map((item) => {
    if (item.row === undefined) throw new Error(`item ${item.id} was read without its row`);
    return item.row;
  });
  const assets = await assetsOfRows(pool, rows);
  return rows.map((row) =>
    JSON.stringify(selectFields(stacItem(row, assets.get(row.id) ?? [], urls, baseUrl), fields)),
  );
}
