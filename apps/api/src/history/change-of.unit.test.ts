import { describe, expect, it } from 'vitest';
import type { CollectionExtent, PortalObjectEvent } from '@portal/domain';
import { changeOf } from './change-of.js';

const id = '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f';
const parentA = '0b6f8c1e-1111-4b7e-9c1d-2a3b4c5d6e7f';
const parentB = '0b6f8c1e-2222-4b7e-9c1d-2a3b4c5d6e7f';
const user = { type: 'user', id: '0b6f8c1e-3333-4b7e-9c1d-2a3b4c5d6e7f' } as const;

describe('the change an event records', () => {
  it('shows each updated field before and after, and only those', () => {
    const event: PortalObjectEvent = {
      type: 'PortalObjectUpdated',
      data: {
        id,
        kind: 'collection',
        changes: { title: 'New', keywords: ['a', 'b'] },
        previous: { title: 'Old', keywords: ['a'] },
      },
    };
    expect(changeOf(event)).toEqual({
      title: { before: 'Old', after: 'New' },
      keywords: { before: ['a'], after: ['a', 'b'] },
    });
  });

  it('says null for a side that had no value: an item without a description, an extent set back', () => {
    const described: PortalObjectEvent = {
      type: 'PortalObjectUpdated',
      data: { id, kind: 'item', changes: { description: 'Now there is one' }, previous: {} },
    };
    expect(changeOf(described)).toEqual({ description: { before: null, after: 'Now there is one' } });
    const extent: CollectionExtent = {
      spatial: { bbox: [[0, 0, 1, 1]] },
      temporal: { interval: [['2024-01-01T00:00:00Z', null]] },
    };
    const computed: PortalObjectEvent = {
      type: 'PortalObjectUpdated',
      data: { id, kind: 'collection', changes: { extent: null }, previous: { extent } },
    };
    expect(changeOf(computed)).toEqual({ extent: { before: extent, after: null } });
  });

  it('shows a move as the parent it left and the one it went to', () => {
    const event: PortalObjectEvent = {
      type: 'PortalObjectMoved',
      data: { id, kind: 'catalog', fromParentId: parentA, toParentId: null },
    };
    expect(changeOf(event)).toEqual({ fromParentId: parentA, toParentId: null });
  });

  it('shows a visibility change as from and to', () => {
    const event: PortalObjectEvent = {
      type: 'VisibilityChanged',
      data: { id, kind: 'catalog', from: 'org', to: 'private' },
    };
    expect(changeOf(event)).toEqual({ from: 'org', to: 'private' });
  });

  it('shows a share with the permission it replaced, and an unshare with the one it took away', () => {
    const first: PortalObjectEvent = {
      type: 'ObjectShared',
      data: { id, kind: 'catalog', principal: user, permission: 'viewer', previous: null },
    };
    expect(changeOf(first)).toEqual({ principal: user, permission: 'viewer', previousPermission: null });
    const raised: PortalObjectEvent = {
      type: 'ObjectShared',
      data: {
        id,
        kind: 'catalog',
        principal: user,
        permission: 'editor',
        previous: { principal: user, permission: 'viewer' },
      },
    };
    expect(changeOf(raised)).toEqual({ principal: user, permission: 'editor', previousPermission: 'viewer' });
    const unshared: PortalObjectEvent = {
      type: 'ObjectUnshared',
      data: { id, kind: 'catalog', principal: user, permission: 'editor' },
    };
    expect(changeOf(unshared)).toEqual({ principal: user, permission: 'editor' });
  });

  it('shows a create as the fields the object was created with, without its own id', () => {
    const event: PortalObjectEvent = {
      type: 'CatalogCreated',
      data: {
        id,
        title: 'Climate',
        description: 'All of it',
        parentId: parentB,
        links: [],
        orgId: parentA,
        visibility: 'org',
        createdBy: user.id,
      },
    };
    expect(changeOf(event)).toEqual({
      title: 'Climate',
      description: 'All of it',
      parentId: parentB,
      links: [],
      orgId: parentA,
      visibility: 'org',
      createdBy: user.id,
    });
  });

  it('shows a delete as whether it took the subtree along, and upload events as their data', () => {
    const deleted: PortalObjectEvent = {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'catalog', recursive: true },
    };
    expect(changeOf(deleted)).toEqual({ recursive: true });
    const failed: PortalObjectEvent = {
      type: 'UploadFailed',
      data: { id, uploadId: 'upload-1', statusMessage: 'part 2 is missing' },
    };
    expect(changeOf(failed)).toEqual({ uploadId: 'upload-1', statusMessage: 'part 2 is missing' });
  });
});
