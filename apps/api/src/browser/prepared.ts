import { createHash } from 'node:crypto';

/**
 * A statement the connection prepares once and then executes without planning again: for the
 * browser's short index lookups, planning costs more than running (about 1 ms against 0.3 ms on a
 * read table with a dozen indexes). The name is derived from the text, which differs per sort order
 * and filter shape only (values are parameters), so each connection keeps a few dozen at most.
 * Their generic plans cannot go wrong: every browser query is pinned to one index by its shape (the
 * parent, the sibling slug or the primary key). The inventory's queries stay unprepared, because the
 * selectivity of `q` and of the filters decides between an index and a search there.
 */
export function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  return { name: `browser_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text, values };
}
