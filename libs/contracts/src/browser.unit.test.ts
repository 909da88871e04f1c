import { describe, expect, it } from 'vitest';
import {
  browserChildrenQuerySchema,
  browserChildrenSchema,
  browserPathQuerySchema,
  browserRootQuerySchema,
} from './browser.js';
import { someId } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

describe('browser queries', () => {
  it('defaults the children order to kind then title, ascending, 50 a page', () => {
    expect(acceptanceOf(browserChildrenQuerySchema, {})).toEqual({ limit: 50, sort: 'kind', order: 'asc' });
    expect(acceptanceOf(browserRootQuerySchema, { limit: '7' })).toEqual({ limit: 7 });
  });

  it('takes kind and status filters comma-separated, repeated or both, without repeats', () => {
    expect(acceptanceOf(browserChildrenQuerySchema, { kind: 'catalog, collection' }).kind).toEqual([
      'catalog',
      'collection',
    ]);
    expect(
      acceptanceOf(browserChildrenQuerySchema, { status: ['ready', 'failed,ready', 'processing'] }).status,
    ).toEqual(['ready', 'failed', 'processing']);
  });

  it.each([
    [{ kind: 'folder' }, 'kind[0]: must be one of catalog, collection, item'],
    [{ kind: ',' }, 'kind: must name one or more of catalog, collection, item'],
    [
      { status: '' },
      'status: must name one or more of uploading, processing, ready, failed, aborted, expired',
    ],
    [{ sort: 'size' }, 'sort: must be one of kind, title, createdAt, updatedAt'],
    [{ order: 'up' }, 'order: must be "asc" or "desc"'],
  ])('refuses %j naming the parameter', (query, message) => {
    expect(rejectionOf(browserChildrenQuerySchema, query).message).toBe(message);
  });

  it('has no cursor on the path lookup: its next page continues at the children endpoint', () => {
    expect('cursor' in acceptanceOf(browserPathQuerySchema, { cursor: 'abc' })).toBe(false);
  });

  it('describes the children answer as the node and a page of nodes', () => {
    const node = {
      id: someId,
      kind: 'catalog',
      title: 'T',
      slug: 't',
      status: 'ready',
      childCount: 0,
      hasChildren: false,
      updatedAt: '2026-11-21T10:00:00.000Z',
      createdAt: '2026-11-21T10:00:00.000Z',
      parentId: null,
      depth: 1,
      path: 't',
    };
    expect(acceptanceOf(browserChildrenSchema, { node, items: [node], next: null, links: [] }).node).toEqual(
      node,
    );
    expect(rejectionOf(browserChildrenSchema, { items: [], next: null, links: [] }).message).toContain(
      'node',
    );
  });
});
