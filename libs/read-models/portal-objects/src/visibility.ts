import type { QueryParams } from '@portal/read-model-core';

/**
 * What "the caller can see" means in SQL, said in one place for every read of `read.portal_objects`:
 * the browser, the inventory, the portal item, catalog and collection reads, links, uploads and assets.
 *
 * The projector keeps on each row `read_principals`, the principals that may read it (docs/identity.md);
 * the caller holds some (`principalsOf(req)`: `public` for anyone, more once signed in). A row is
 * visible when the two overlap. The caller's array is bound as one parameter of the statement, so a
 * prepared statement's text is the same for every caller.
 */
export type Principals = readonly string[];

/** The caller's principals as the statement's (single) `text[]` parameter. */
function principalsParam(principals: Principals, params: QueryParams): string {
  return params.addShared(principals, 'text[]');
}

/**
 * The row's readers overlap the caller's principals (`principals`: a `text[]` parameter reference),
 * deleted or not: a change feed shows deletes too. Every read of a row the caller may see goes through it.
 */
export function readableBy(alias: string, principals: string): string {
  return `${alias}.read_principals && ${principals}`;
}

/**
 * A live row the caller may read. Keeps `deleted_at IS NULL` as a conjunct: the partial indexes every
 * page scans are declared with it.
 */
export function visibleObject(alias: string, principals: Principals, params: QueryParams): string {
  return `(${alias}.deleted_at IS NULL AND ${readableBy(alias, principalsParam(principals, params))})`;
}

/**
 * The node's live children that the caller may read, as an integer expression (for `childCount` and
 * `hasChildren`), without counting the children one by one in the cases that matter:
 *
 * - the stored `child_count` (every live child) is exact for a holder of `admin:<org>` of the node's
 *   organization: children belong to their parent's organization and its admins read all of them;
 * - otherwise a child is hidden from someone who sees the node only if its effective visibility is not
 *   `public` (a `public` row grants `public`, which everyone holds), and, for a member of the node's
 *   organization (`member:<org>`), only if it is `private` (an `org` row grants `member:<org>`). So the
 *   count is `child_count` less the hidden ones among those candidates, each kind of them one range of
 *   `(parent_id, effective_visibility)`, never the public (or member-visible) bulk of a wide node.
 *
 * The result never goes below 0 even if a stored count were behind.
 */
export function visibleChildCount(alias: string, principals: Principals, params: QueryParams): string {
  const held = principalsParam(principals, params);
  // One equality per visibility (not `= ANY`), so the range is always an index condition; `<> 'public'`
  // lets the planner use an index kept for non-public rows only.
  const hidden = (visibility: 'org' | 'private') => {
    const child = `${alias}_${visibility}`;
    return `(SELECT count(*)::int FROM read.portal_objects ${child}
       WHERE ${child}.parent_id = ${alias}.id AND ${child}.deleted_at IS NULL
         AND ${child}.effective_visibility <> 'public' AND ${child}.effective_visibility = '${visibility}'
         AND NOT (${readableBy(child, held)}))`;
  };
  return `CASE
    WHEN ${alias}.child_count = 0 THEN 0
    WHEN ('admin:' || ${alias}.org_id) = ANY(${held}) THEN ${alias}.child_count
    ELSE GREATEST(0, ${alias}.child_count - ${hidden('private')}
      - CASE WHEN ('member:' || ${alias}.org_id) = ANY(${held}) THEN 0 ELSE ${hidden('org')} END)
  END`;
}
