import type { ContainerScope } from './container-query.js';

/**
 * Which list a page of `/collections` or of children continues, the first part of its token
 * (`encodeKeysetToken` in search-token.ts: the sort's signature and a container's keys follow). The list
 * names the parent of children (empty for the root level): a token of one catalog's children continues
 * no other list, and none continues an item page.
 */
export type ContainerList = 'collections' | `children:${string}`;

export function containerListOf(scope: ContainerScope): ContainerList {
  return scope.kind === 'collections' ? 'collections' : `children:${scope.parentId ?? ''}`;
}
