import { describe, expect, it } from 'vitest';
import { pagerOf, upsert, wantsMore, withPage, without, type Pager } from './pager.js';

interface Row {
  readonly id: string;
  readonly title: string;
}
const row = (title: string): Row => ({ id: `id-${title}`, title });
const byTitle = (a: Row, b: Row) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);

describe('pager', () => {
  it('appends pages in order and keeps the cursor of the last', () => {
    let pager: Pager<Row> = pagerOf({ items: [row('a'), row('b')], next: 'c1' });
    pager = withPage({ ...pager, loading: true }, { items: [row('c'), row('d')], next: 'c2' });
    expect(pager.items.map((item) => item.title)).toEqual(['a', 'b', 'c', 'd']);
    expect(pager.next).toBe('c2');
    expect(pager.loading).toBe(false);
    pager = withPage(pager, { items: [row('e')], next: null });
    expect(pager.next).toBeNull();
  });

  it('drops a row of a page that is shown already (placed live before its page came)', () => {
    const pager = upsert(pagerOf({ items: [row('a'), row('c')], next: 'x' }), row('b'), byTitle);
    const next = withPage(pager, { items: [row('b'), row('d')], next: null });
    expect(next.items.map((item) => item.title)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('asks for more only near the end, with a cursor, while nothing is on its way and nothing failed', () => {
    const items = Array.from({ length: 100 }, (_, index) => row(String(index).padStart(3, '0')));
    const pager = pagerOf({ items, next: 'cursor' });
    expect(wantsMore(pager, 10, 60)).toBe(false);
    expect(wantsMore(pager, 40, 60)).toBe(true);
    expect(wantsMore({ ...pager, loading: true }, 99, 60)).toBe(false);
    expect(wantsMore({ ...pager, error: new Error('503') }, 99, 60)).toBe(false);
    expect(wantsMore({ ...pager, next: null }, 99, 60)).toBe(false);
    expect(wantsMore(pagerOf({ items: [], next: 'c' }), -1, 60)).toBe(true);
  });

  it('places a changed row where the order puts it, and leaves one beyond the loaded pages to its page', () => {
    const pager = pagerOf({ items: [row('b'), row('d'), row('f')], next: 'more' });
    expect(upsert(pager, row('c'), byTitle).items.map((item) => item.title)).toEqual(['b', 'c', 'd', 'f']);
    expect(upsert(pager, row('a'), byTitle).items.map((item) => item.title)).toEqual(['a', 'b', 'd', 'f']);
    // Sorts after the last loaded row while more pages exist: its own page will bring it.
    expect(upsert(pager, row('z'), byTitle).items.map((item) => item.title)).toEqual(['b', 'd', 'f']);
    // On the last page it belongs at the end.
    const complete = { ...pager, next: null };
    expect(upsert(complete, row('z'), byTitle).items.map((item) => item.title)).toEqual(['b', 'd', 'f', 'z']);
    // A retitled row moves, it is not shown twice.
    const moved = upsert(complete, { id: 'id-b', title: 'e' }, byTitle);
    expect(moved.items.map((item) => item.title)).toEqual(['d', 'e', 'f']);
  });

  it('shows a row its page brings after the live row was removed again', () => {
    let pager = upsert(pagerOf({ items: [row('a'), row('c')], next: 'x' }), row('b'), byTitle);
    pager = without(pager, 'id-b');
    expect(
      withPage(pager, { items: [row('b'), row('d')], next: null }).items.map((item) => item.title),
    ).toEqual(['a', 'c', 'b', 'd']);
  });

  it('removes a row by id and keeps the same state when it is not shown', () => {
    const pager = pagerOf({ items: [row('a'), row('b')], next: null });
    expect(without(pager, 'id-a').items.map((item) => item.title)).toEqual(['b']);
    expect(without(pager, 'id-zzz')).toBe(pager);
  });
});
