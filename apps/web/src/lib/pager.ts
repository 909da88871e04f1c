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
}

export interface PageOf<T> {
  readonly items: readonly T[];
  readonly next: string | null;
}

export function pagerOf<T>(page: PageOf<T>): Pager<T> {
  return { items: page.items, next: page.next, loading: false, error: null };
}

/**
 * Appends a page. Keyset pages never repeat a row, but a row inserted live (a create seen on the
 * event feed) may arrive again in its page: the one already shown is kept, by id.
 */
export function withPage<T extends { readonly id: string }>(pager: Pager<T>, page: PageOf<T>): Pager<T> {
  const shown = new Set(pager.items.map((item) => item.id));
  const fresh = page.items.filter((item) => !shown.has(item.id));
  return { items: [...pager.items, ...fresh], next: page.next, loading: false, error: null };
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
  return { ...pager, items };
}

export function without<T extends { readonly id: string }>(pager: Pager<T>, id: string): Pager<T> {
  const items = pager.items.filter((item) => item.id !== id);
  return items.length === pager.items.length ? pager : { ...pager, items };
}
