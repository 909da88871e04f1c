import type { StacSearchBody } from '@portal/contracts';
import { parseFreeText, parseFreeTextList } from './free-text-request.js';
import { freeTextCondition } from './free-text-sql.js';
import { itemFilterCondition } from './item-filter.js';
import type { ItemCondition } from './item-query.js';
import { itemQueryCondition, queryNode, queryNodeFromText } from './query-extension.js';

/**
 * The conditions a request adds to the search's own (`filter`, `query`, `q`), each checked and
 * translated before any query runs. The search, a collection's items and the aggregation read them
 * here, so the same parameters select the same items everywhere.
 */

/** A GET's: every value a string; `filter` is CQL2 text unless `filter-lang` says JSON. */
export function conditionsFromQuery(
  query: Readonly<Partial<Record<'filter' | 'filter-lang' | 'filter-crs' | 'query' | 'q', string>>>,
): ItemCondition[] {
  const filter = itemFilterCondition(query, 'cql2-text');
  const queried = itemQueryCondition(query.query === undefined ? null : queryNodeFromText(query.query));
  const text = query.q === undefined ? null : freeTextCondition(parseFreeText(query.q));
  return [filter, queried, text].filter((condition) => condition !== null);
}

/** A POST body's: `filter` may be CQL2 JSON, `query` an object, `q` a string or a list of phrases. */
export function conditionsFromBody(
  body: Pick<StacSearchBody, 'filter' | 'filter-lang' | 'filter-crs' | 'query' | 'q'>,
): ItemCondition[] {
  const filter = itemFilterCondition(body, undefined);
  const queried = itemQueryCondition(body.query === undefined ? null : queryNode(body.query));
  const text =
    body.q === undefined
      ? null
      : freeTextCondition(typeof body.q === 'string' ? parseFreeText(body.q) : parseFreeTextList(body.q));
  return [filter, queried, text].filter((condition) => condition !== null);
}
