import type { BrowserNode, NodeSort, SortOrder } from '@portal/contracts';

const KIND_RANK = { catalog: 0, collection: 1, item: 2 } as const;

/** Code point order, as the database's `C.UTF-8` collation sorts titles (docs/decisions.md). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The order the API pages children in: the sort key, then the id, so it is total. Used to place a
 * row that changed live where the next page would have put it.
 */
export function nodeComparator(sort: NodeSort, order: SortOrder): (a: BrowserNode, b: BrowserNode) => number {
  const direction = order === 'asc' ? 1 : -1;
  const key = (a: BrowserNode, b: BrowserNode): number => {
    switch (sort) {
      case 'kind':
        return KIND_RANK[a.kind] - KIND_RANK[b.kind] || compareText(a.title, b.title);
      case 'title':
        return compareText(a.title, b.title);
      case 'createdAt':
        return Date.parse(a.createdAt) - Date.parse(b.createdAt);
      case 'updatedAt':
        return Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
    }
  };
  return (a, b) => direction * (key(a, b) || compareText(a.id, b.id));
}
