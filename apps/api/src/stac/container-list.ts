import type { StacLink } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import type { Principals, SortedContainerRow } from '@portal/read-model-portal-objects';
import { sortedContainers, type ContainerCondition, type ContainerScope } from './container-query.js';
import { containerListOf } from './container-token.js';
import { parseLimitText } from './item-search-request.js';
import type { ItemSort } from './item-sort.js';
import { decodeKeysetToken, encodeKeysetToken } from './search-token.js';
import { JSON_TYPE, type StacUrls } from './stac-links.js';

/** What a page of `/collections` or of children lists, and how it was asked for. */
export interface ContainerListRequest {
  readonly scope: ContainerScope;
  readonly selfUrl: string;
  /** The query as given (`limit`, `token` and a collection search's parameters): links repeat it. */
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly sort: ItemSort;
  readonly conditions: readonly ContainerCondition[];
  /** The page size when `limit` is absent; the search's default (10) unless given. */
  readonly defaultLimit?: number;
}

function withQuery(url: string, query: Readonly<Record<string, string | undefined>>, token: string): string {
  const defined = Object.entries(query).filter(
    (entry): entry is [string, string] => entry[0] !== 'token' && entry[1] !== undefined,
  );
  return `${url}?${new URLSearchParams([...defined, ['token', token]]).toString()}`;
}

/**
 * A page of containers with `self`, `root`, and the `prev` and `next` links: each repeats the query with
 * a token of the page's first (read backwards) or last container's sort keys, as item pages do.
 */
export async function containerListPage(
  pool: Pool,
  principals: Principals,
  urls: StacUrls,
  request: ContainerListRequest,
): Promise<{ rows: SortedContainerRow[]; links: StacLink[] }> {
  const { sort, query } = request;
  const list = containerListOf(request.scope);
  const limit = parseLimitText(query.limit, request.defaultLimit);
  const cursor = query.token === undefined ? null : decodeKeysetToken(list, sort, query.token);
  const page = await sortedContainers(
    pool,
    request.scope,
    principals,
    { limit, sort, cursor },
    request.conditions,
  );
  const first = page.rows.at(0);
  const last = page.rows.at(-1);
  const link = (rel: 'prev' | 'next', row: SortedContainerRow): StacLink => ({
    rel,
    href: withQuery(request.selfUrl, query, encodeKeysetToken(list, sort, row.sort_keys, rel)),
    type: JSON_TYPE,
  });
  return {
    rows: page.rows,
    links: [
      { rel: 'self', href: request.selfUrl, type: JSON_TYPE },
      { rel: 'root', href: urls.root, type: JSON_TYPE },
      ...(page.prev && first !== undefined ? [link('prev', first)] : []),
      ...(page.next && last !== undefined ? [link('next', last)] : []),
    ],
  };
}
