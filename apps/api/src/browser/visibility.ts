import type { QueryParams } from './query-params.js';

/**
 * What "the caller can see" means in SQL, said in one place for the browser and the inventory.
 *
 * Until authorization lands (issue 5) every live object is visible to everyone. Then these take the
 * caller (organization, grants) and bind what they need through `params`, and every query that
 * lists, counts or resolves objects follows. The predicate must keep `deleted_at IS NULL`: the partial
 * indexes the pages scan are declared with it.
 */
export function visibleObject(alias: string, _params: QueryParams): string {
  return `${alias}.deleted_at IS NULL`;
}

/** The same for rows of `read.inventory_totals` (one per organization, kind and status). */
export function visibleTotals(_alias: string, _params: QueryParams): string {
  return 'TRUE';
}
