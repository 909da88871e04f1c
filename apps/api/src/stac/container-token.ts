import { HttpProblem } from '../http/problem.js';
import type { ContainerScope } from './container-query.js';
import type { ItemSort } from './item-sort.js';
import { validValue, type ItemCursor } from './search-token.js';

/**
 * The token of a page of `/collections` or of children: which list it continues, the sort it was issued
 * under (its signature), a container's value of each sort key as text, and `prev` for the page before
 * that container. Base64url JSON, opaque to clients, as an item page's token.
 *
 * The list names the parent of children (empty for the root level): a token of one catalog's children
 * continues no other list.
 */
export type ContainerList = 'collections' | `children:${string}`;

export function containerListOf(scope: ContainerScope): ContainerList {
  return scope.kind === 'collections' ? 'collections' : `children:${scope.parentId ?? ''}`;
}

export function encodeContainerToken(
  list: ContainerList,
  sort: ItemSort,
  values: readonly (string | null)[],
  direction: ItemCursor['direction'],
): string {
  const parts =
    direction === 'next' ? [list, sort.signature, values] : [list, sort.signature, values, 'prev'];
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

const invalid = (why = 'not a token returned by this API') =>
  new HttpProblem(400, `token: ${why}`, 'INVALID_TOKEN');

/**
 * The cursor of a container list's token, checked against the request's list and sort: a token of
 * another list, of another sort or tampered with answers 400.
 */
export function decodeContainerToken(list: ContainerList, sort: ItemSort, token: string): ItemCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(decoded) || decoded[0] !== list) throw invalid();
  const prev = decoded.length === 4 && decoded[3] === 'prev';
  if (decoded.length !== 3 && !prev) throw invalid();
  const [, signature, values] = decoded as [unknown, unknown, unknown];
  if (signature !== sort.signature) {
    throw invalid(`issued for another sortby (${String(signature)}), not ${sort.signature}`);
  }
  if (!Array.isArray(values) || values.length !== sort.keys.length) throw invalid();
  if (!sort.keys.every((key, index) => validValue(key, values[index]))) throw invalid();
  return { keys: values as (string | null)[], direction: prev ? 'prev' : 'next' };
}
