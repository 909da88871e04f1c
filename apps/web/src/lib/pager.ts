/**
 * The state of a keyset-paged list as the explorer scrolls it: the rows loaded so far, the cursor of
 * the next page, whether a page is on its way. Pure, so paging is unit-tested (pager.unit.test.ts).
 */
export interface Pager<T> {
  readonly items: readonly T[];
  /** Cursor of the next page; `null` once the last page arrived. */
  readonly next: string | null;
  readonly loading: boolean;
  readonly error: unknown;
  /**
   * Ids of rows placed by `upsert` (live changes) rather than by their page. Keyset pages never repeat
   * a row, so only these can arrive twice: a page is checked against them alone, not against every
   * row loaded (which, at 100,000 rows, cost a set of 100,000 ids per page).
   */
  readonly placed: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

export interface PageOf<T> {
  readonly items: readonly T[];
  readonly next: string | null;
}

export function pagerOf<T>(page: PageOf<T>): Pager<T> {
  return { items: page.items, next: page.next, loading: false, error: null, placed: NONE };
}

/**
 * Appends a page. Keyset pages never repeat a row, but a row inserted live (a create seen on the
 * event feed) may arrive again in its page: the one already shown is kept, by id.
 */
export function withPage<T extends { readonly id: string }>(pager: Pager<T>, page: PageOf<T>): Pager<T> {
  const fresh =
    pager.placed.size === 0 ? page.items : page.items.filter((item) => !pager.placed.has(item.id));
  return { ...pager, items: pager.items.concat(fresh), next: page.next, loading: false, error: null };
}

/**
 * Whether to ask for the next page now: the user has scrolled within `prefetchRows` of the last row
 * loaded, more exists, and no page is on its way (nor has the last attempt failed: a retry is the
 * user's to ask for, not a loop's).
 */
export function wantsMore<T>(pager: Pager<T>, lastVisibleIndex: number, prefetchRows: number): boolean {
  if (pager.next === null || pager.loading || pager.error !== null) return false;
  return lastVisibleIndex + prefetchRows >= pager.items.length;
}

/**
 * Puts a changed or new row where the list's order puts it. A row that sorts after the last one
 * loaded while more pages exist is left for its page (inserting it would show it out of place, then
 * again). `compare` is the list's order.
 */
export function upsert<T extends { readonly id: string }>(
  pager: Pager<T>,
  item: T,
  compare: (a: T, b: T) => number,
): Pager<T> {
  const rest = pager.items.filter((existing) => existing.id !== item.id);
  const last = rest.at(-1);
  if (pager.next !== null && last !== undefined && compare(item, last) > 0) return { ...pager, items: rest };
  const at = rest.findIndex((existing) => compare(item, existing) < 0);
  const items = at < 0 ? [...rest, item] : [...rest.slice(0, at), item, ...rest.slice(at)];
  return { ...pager, items, placed: new Set(pager.placed).add(item.id) };
}

export function without<T extends { readonly id: string }>(pager: Pager<T>, id: string): Pager<T> {
  const items = pager.items.filter((item) => item.id !== id);
  if (items.length === pager.items.length) return pager;
  // Gone from the list: if its page brings it back (it moved back in), it is shown again.
  const placed = new Set(pager.placed);
  placed.delete(id);
  return { ...pager, items, placed };
}
