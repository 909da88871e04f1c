import type { BrowserNode } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { nodeComparator } from './node-order.js';

function node(id: string, kind: BrowserNode['kind'], title: string, createdAt: string): BrowserNode {
  return {
    id,
    kind,
    title,
    slug: title.toLowerCase(),
    status: 'ready',
    childCount: 0,
    hasChildren: false,
    createdAt,
    updatedAt: createdAt,
    parentId: null,
    depth: 1,
    path: title.toLowerCase(),
  };
}

describe('nodeComparator', () => {
  const nodes = [
    node('3', 'item', 'Alpha', '2024-01-03T00:00:00Z'),
    node('1', 'catalog', 'Zulu', '2024-01-01T00:00:00.5Z'),
    node('2', 'collection', 'Beta', '2024-01-01T00:00:00.25Z'),
    node('4', 'catalog', 'Zulu', '2024-01-02T00:00:00Z'),
  ];
  const ids = (sorted: BrowserNode[]) => sorted.map((entry) => entry.id);

  it('orders by kind, then title, then id, as the API pages children', () => {
    expect(ids([...nodes].sort(nodeComparator('kind', 'asc')))).toEqual(['1', '4', '2', '3']);
    expect(ids([...nodes].sort(nodeComparator('kind', 'desc')))).toEqual(['3', '2', '4', '1']);
  });

  it('orders by title in code point order (capitals first), then id', () => {
    const lower = node('5', 'item', 'alpha', '2024-01-01T00:00:00Z');
    expect(ids([...nodes, lower].sort(nodeComparator('title', 'asc')))).toEqual(['3', '2', '1', '4', '5']);
  });

  it('orders by time as instants, whatever the fraction digits', () => {
    expect(ids([...nodes].sort(nodeComparator('createdAt', 'asc')))).toEqual(['2', '1', '4', '3']);
  });
});
