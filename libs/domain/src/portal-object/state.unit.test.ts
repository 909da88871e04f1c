import { describe, expect, it } from 'vitest';
import {
  aLink,
  catalogCreated,
  collectionCreated,
  newId,
  testOrgId,
  testUserId,
} from './decider-test-kit.js';
import type { PortalObjectEvent } from './events.js';
import { noItemMetadata } from './item-events.js';
import { evolve, foldState, initialState } from './state.js';

describe('portal-object state', () => {
  it('starts absent', () => {
    expect(initialState).toStrictEqual({ status: 'absent' });
    expect(foldState([])).toStrictEqual({ status: 'absent' });
  });

  it('folds a catalog through update, move and delete', () => {
    const id = newId();
    const parentId = newId();
    const links = [aLink('https://example.org/x')];
    const history: PortalObjectEvent[] = [
      catalogCreated({ id, title: 'A', description: 'd', parentId: null }),
      {
        type: 'PortalObjectUpdated',
        data: { id, kind: 'catalog', changes: { title: 'B', links }, previous: { title: 'A', links: [] } },
      },
      { type: 'PortalObjectMoved', data: { id, kind: 'catalog', fromParentId: null, toParentId: parentId } },
    ];
    expect(foldState(history)).toStrictEqual({
      status: 'live',
      kind: 'catalog',
      id,
      title: 'B',
      description: 'd',
      parentId,
      links,
      access: { orgId: testOrgId, visibility: 'org', createdBy: testUserId, shares: [] },
    });
    const deleted = evolve(foldState(history), {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'catalog', recursive: false },
    });
    expect(deleted).toStrictEqual({
      status: 'deleted',
      id,
      kind: 'catalog',
      parentId,
      access: { orgId: testOrgId, visibility: 'org', createdBy: testUserId, shares: [] },
    });
  });

  it('keeps collection fields and applies a reset extent', () => {
    const id = newId();
    const extent = { spatial: { bbox: [[0, 0, 1, 1] as const] }, temporal: { interval: [] } };
    const state = foldState([
      collectionCreated({ id, license: 'MIT', keywords: ['k'], extent }),
      {
        type: 'PortalObjectUpdated',
        data: { id, kind: 'collection', changes: { extent: null }, previous: { extent } },
      },
    ]);
    expect(state).toMatchObject({
      status: 'live',
      kind: 'collection',
      license: 'MIT',
      keywords: ['k'],
      extent: null,
    });
  });

  it('leaves the state unchanged for an event that cannot apply to it', () => {
    const id = newId();
    const orphanUpdate: PortalObjectEvent = {
      type: 'PortalObjectUpdated',
      data: { id, kind: 'catalog', changes: { title: 'x' }, previous: { title: 'y' } },
    };
    expect(evolve(initialState, orphanUpdate)).toBe(initialState);
    const live = foldState([catalogCreated({ id })]);
    expect(evolve(live, collectionCreated({ id }))).toBe(live);
  });

  it('folds visibility changes and shares into the access; a deleted object keeps it as it was', () => {
    const id = newId();
    const alice = { type: 'user', id: newId() } as const;
    const partners = { type: 'organization', id: newId() } as const;
    const bob = { type: 'user', id: newId() } as const;
    const history: PortalObjectEvent[] = [
      catalogCreated({ id, visibility: 'org' }),
      { type: 'VisibilityChanged', data: { id, kind: 'catalog', from: 'org', to: 'private' } },
      {
        type: 'ObjectShared',
        data: { id, kind: 'catalog', principal: alice, permission: 'viewer', previous: null },
      },
      {
        type: 'ObjectShared',
        data: { id, kind: 'catalog', principal: partners, permission: 'editor', previous: null },
      },
      {
        type: 'ObjectShared',
        data: { id, kind: 'catalog', principal: bob, permission: 'viewer', previous: null },
      },
      // A second share to alice replaces the first, in its place.
      {
        type: 'ObjectShared',
        data: {
          id,
          kind: 'catalog',
          principal: alice,
          permission: 'editor',
          previous: { principal: alice, permission: 'viewer' },
        },
      },
      { type: 'ObjectUnshared', data: { id, kind: 'catalog', principal: bob, permission: 'viewer' } },
    ];
    const state = foldState(history);
    expect(state).toMatchObject({
      status: 'live',
      access: {
        orgId: testOrgId,
        visibility: 'private',
        createdBy: testUserId,
        shares: [
          { principal: alice, permission: 'editor' },
          { principal: partners, permission: 'editor' },
        ],
      },
    });
    const deleted = evolve(state, {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'catalog', recursive: false },
    });
    // Who could see it still decides who may learn that it was deleted (the API's command handlers).
    expect(deleted).toStrictEqual({
      status: 'deleted',
      id,
      kind: 'catalog',
      parentId: null,
      access: {
        orgId: testOrgId,
        visibility: 'private',
        createdBy: testUserId,
        shares: [
          { principal: alice, permission: 'editor' },
          { principal: partners, permission: 'editor' },
        ],
      },
    });
    const shareAfterDelete: PortalObjectEvent = {
      type: 'ObjectShared',
      data: { id, kind: 'catalog', principal: bob, permission: 'viewer', previous: null },
    };
    expect(evolve(deleted, shareAfterDelete)).toBe(deleted);
    expect(evolve(initialState, shareAfterDelete)).toBe(initialState);
  });

  it('gives an item the access of its create event', () => {
    const id = newId();
    const parentId = newId();
    const state = foldState([
      {
        type: 'ItemUploadStarted',
        data: {
          id,
          title: 'Scene',
          description: null,
          parentId,
          links: [],
          metadata: noItemMetadata,
          upload: {
            uploadId: 'upload-1',
            bucket: 'portal-assets',
            key: `items/${id}/data`,
            partSize: 5 * 1024 ** 2,
            partCount: 1,
            size: null,
            fileName: null,
            contentType: null,
            expiresAt: '2026-11-22T00:00:00.000Z',
          },
          orgId: testOrgId,
          visibility: 'public',
          createdBy: null,
        },
      },
      { type: 'VisibilityChanged', data: { id, kind: 'item', from: 'public', to: 'org' } },
    ]);
    const access = { orgId: testOrgId, visibility: 'org', createdBy: null, shares: [] };
    expect(state).toMatchObject({ status: 'live', kind: 'item', access });
    // Deleted while uploading: the tombstone keeps the access beside the upload left open, and after it.
    const deleted = evolve(state, {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'item', recursive: false },
    });
    expect(deleted).toMatchObject({ status: 'deleted', openUploadId: 'upload-1', access });
    const aborted = evolve(deleted, { type: 'UploadAborted', data: { id, uploadId: 'upload-1' } });
    expect(aborted).toStrictEqual({ status: 'deleted', id, kind: 'item', parentId, access });
  });
});
