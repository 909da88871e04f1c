import { stacAggregateQuerySchema } from '@portal/contracts';
import { anonymous, callerPrincipals } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { findAssetsOf, findVisibleCollectionKey } from '@portal/read-model-portal-objects';
import { aggregationFromQuery } from '../../apps/api/src/stac/aggregation-request.js';
import { computeAggregation } from '../../apps/api/src/stac/aggregation-sql.js';
import { searchItems } from '../../apps/api/src/stac/item-query.js';
import {
  matchFromQuery,
  searchFromQuery,
  type SearchQuery,
} from '../../apps/api/src/stac/item-search-request.js';
import { conditionsFromQuery } from '../../apps/api/src/stac/search-conditions.js';
import type { Probe } from '../browser/closed-loop.js';
import { getTextWith } from '../support/http-get.js';
import type { SceneTargets } from './scene-generator.js';
import { isDocumentOf } from './document-check.js';
import { roundRobin } from './paired-rounds.js';
import type { HttpProbeClient } from './stac-options.js';

/** One query shape: the request a STAC client sends, and the same reads through the API's own query code. */
export interface StacView {
  readonly name: string;
  readonly http: Probe;
  readonly sql: Probe;
}

/** A search as a GET: the path under the API and its query string (exactly what the SQL probe parses). */
interface Search {
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
}

export const PAGE_SIZE = 100;
/** The SQL probes read as the HTTP probes do: without a credential. */
const principals = callerPrincipals(anonymous);
const STAC = '/api/v1/stac';

function at<T>(items: readonly T[], sequence: number): T {
  const item = items[sequence % items.length];
  if (item === undefined) throw new RangeError('no targets');
  return item;
}

function urlOf(baseUrl: string, search: Search): string {
  return `${baseUrl}${search.path}?${new URLSearchParams(search.query).toString()}`;
}

/**
 * GET that must answer 200 with a document of type `type`; the body is read whole, as a client would.
 * With several API processes the requests go to them round robin, as a balancer deals them.
 */
function httpProbe(
  baseUrls: readonly string[],
  searchAt: (sequence: number) => Search,
  client: HttpProbeClient,
  type = 'FeatureCollection',
): Probe {
  const get = getTextWith(client.http);
  const headers = { accept: 'application/geo+json, application/json' };
  const nextBaseUrl = roundRobin(baseUrls);
  return async (sequence) => {
    const answer = await get(urlOf(nextBaseUrl(), searchAt(sequence)), { headers });
    return answer.status === 200 && isDocumentOf(answer.parts, type, client.body);
  };
}

/**
 * What the API reads for the same request, without HTTP or JSON: the query string parsed by its own
 * parser, the page by `searchItems` as the API reads it (the items' stored JSON, docs/stac.md), then
 * the assets of any item read as a row instead (none when every text is there). A collection's items
 * are the search with that one collection (the API's route does the same).
 */
function sqlProbe(pool: Pool, searchAt: (sequence: number) => Search): Probe {
  return async (sequence) => {
    const { path, query } = searchAt(sequence);
    const collection = /\/collections\/([^/]+)\/items$/.exec(path)?.[1];
    const parsed: SearchQuery = collection === undefined ? query : { ...query, collections: collection };
    // The route first checks the collection is there for the caller, as every read of it does.
    if (collection !== undefined) await findVisibleCollectionKey(pool, collection, principals);
    const page = await searchItems(
      pool,
      searchFromQuery(parsed),
      principals,
      conditionsFromQuery(parsed),
      'stored',
    );
    const built = page.rows.filter((item) => item.row !== undefined).map((item) => item.id);
    if (built.length > 0) await findAssetsOf(pool, built);
    // An empty page is an answer too (a box and year with no scene), as the HTTP probe's 200 is.
    return true;
  };
}

/** What the API computes for an aggregate request: each named aggregation's one statement. */
function aggregateSqlProbe(pool: Pool, searchAt: (sequence: number) => Search): Probe {
  return async (sequence) => {
    const query = stacAggregateQuerySchema.parse(searchAt(sequence).query);
    const request = aggregationFromQuery(query);
    const scope = { match: matchFromQuery(query), principals, extra: conditionsFromQuery(query), request };
    await Promise.all(request.names.map((name) => computeAggregation(pool, name, scope)));
    return true;
  };
}

/** Where a view's two probes go: the API's processes for HTTP, the pool for the direct reads. */
interface Reach {
  readonly baseUrls: readonly string[];
  readonly pool: Pool;
  readonly client: HttpProbeClient;
}

function view(name: string, options: Reach, searchAt: (sequence: number) => Search): StacView {
  return {
    name,
    http: httpProbe(options.baseUrls, searchAt, options.client),
    sql: sqlProbe(options.pool, searchAt),
  };
}

/** A year of the archive's ten, by request, so consecutive requests do not read the same rows. */
function yearOf(sequence: number): string {
  const year = 2015 + (sequence % 10);
  return `${year}-01-01T00:00:00Z/${year}-12-31T23:59:59Z`;
}

/** A pentagon about 4° across around a box's centre: an area of interest drawn by hand. */
function polygonAround(box: readonly [number, number, number, number]): string {
  const cx = (box[0] + box[2]) / 2;
  const cy = (box[1] + box[3]) / 2;
  const ring = Array.from({ length: 5 }, (_, corner) => {
    const angle = (2 * Math.PI * corner) / 5;
    return [
      Math.round((cx + 2 * Math.cos(angle)) * 1e4) / 1e4,
      Math.round((cy + 2 * Math.sin(angle)) * 1e4) / 1e4,
    ];
  });
  return JSON.stringify({ type: 'Polygon', coordinates: [[...ring, ring[0]]] });
}

/**
 * The `token` of page `page` (1 = the first, no token) of a search, found by following `next` links,
 * as a client paging that deep would.
 */
export async function tokenOfPage(baseUrl: string, search: Search, page: number): Promise<string | null> {
  let token: string | null = null;
  for (let current = 1; current < page; current += 1) {
    const query: Record<string, string> = token === null ? { ...search.query } : { ...search.query, token };
    const response = await fetch(urlOf(baseUrl, { path: search.path, query }));
    const body = (await response.json()) as { links?: { rel: string; href: string }[] };
    const next = body.links?.find((link) => link.rel === 'next');
    if (response.status !== 200 || next === undefined) {
      throw new Error(`page ${current} of ${JSON.stringify(search)} has no next link (${response.status})`);
    }
    token = new URL(next.href).searchParams.get('token');
  }
  return token;
}

/** Sorted by time, newest first: the default a client pages through. */
export const byTimeDescending: Search = {
  path: `${STAC}/search`,
  query: { sortby: '-datetime', limit: String(PAGE_SIZE) },
};

/**
 * Sorted by cloud cover, least first: a later page must start at the previous page's key (the items
 * without the property come after every value, which a plain bound on the key would leave out).
 */
export const byCloudCoverAscending: Search = {
  path: `${STAC}/search`,
  query: { sortby: '+properties.eo:cloud_cover', limit: String(PAGE_SIZE) },
};

export function stacViews(options: {
  /** The API's processes, one base URL each. */
  readonly baseUrls: readonly string[];
  readonly pool: Pool;
  readonly targets: SceneTargets;
  /** Tokens of the deep pages of `byTimeDescending`, by page number. */
  readonly deepPages: ReadonlyMap<number, string | null>;
  /** The same of `byCloudCoverAscending`. */
  readonly cloudCoverPages: ReadonlyMap<number, string | null>;
  readonly client: HttpProbeClient;
}): StacView[] {
  const { baseUrls, pool, targets } = options;
  const reach = { baseUrls, pool, client: options.client };
  const limit = String(PAGE_SIZE);
  const search = (query: Record<string, string>): Search => ({
    path: `${STAC}/search`,
    query: { limit, ...query },
  });
  const aggregateByMonth = (sequence: number): Search => ({
    path: `${STAC}/aggregate`,
    query: {
      aggregations: 'datetime_frequency',
      datetime_frequency_interval: 'month',
      collections: at(targets.collectionIds, sequence),
    },
  });
  const views: StacView[] = [
    view('bbox 5°×5° + one year', reach, (sequence) =>
      search({ bbox: at(targets.boxes, sequence).join(','), datetime: yearOf(sequence) }),
    ),
    view('intersects a polygon', reach, (sequence) =>
      search({ intersects: polygonAround(at(targets.boxes, sequence)) }),
    ),
    view('CQL2 filter: cloud cover + one year', reach, (sequence) =>
      search({
        filter: `"eo:cloud_cover" < 10 AND T_INTERSECTS(datetime, INTERVAL('${yearOf(sequence).replace('/', "','")}'))`,
        'filter-lang': 'cql2-text',
      }),
    ),
    view("a collection's items", reach, (sequence) => ({
      path: `${STAC}/collections/${at(targets.collectionIds, sequence)}/items`,
      query: { limit },
    })),
    view('ids: 10 scenes by STAC id', reach, (sequence) =>
      search({
        ids: Array.from({ length: 10 }, (_, n) => at(targets.names, sequence * 10 + n)).join(','),
      }),
    ),
    {
      name: "aggregation by month, one collection's items",
      http: httpProbe(baseUrls, aggregateByMonth, options.client, 'AggregationCollection'),
      sql: aggregateSqlProbe(pool, aggregateByMonth),
    },
  ];
  for (const [page, token] of options.deepPages) {
    views.push(
      view(`sortby -datetime, page ${page}`, reach, () => ({
        ...byTimeDescending,
        query: token === null ? byTimeDescending.query : { ...byTimeDescending.query, token },
      })),
    );
  }
  for (const [page, token] of options.cloudCoverPages) {
    views.push(
      view(`sortby +eo:cloud_cover, page ${page}`, reach, () => ({
        ...byCloudCoverAscending,
        query: token === null ? byCloudCoverAscending.query : { ...byCloudCoverAscending.query, token },
      })),
    );
  }
  return views;
}
