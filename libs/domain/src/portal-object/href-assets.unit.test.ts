import { describe, expect, it } from 'vitest';
import type { UpdatePortalObject } from './commands.js';
import { decide } from './decider.js';
import {
  collectionCreated,
  createdByCreator,
  creator,
  given,
  liveParent,
  newId,
} from './decider-test-kit.js';
import type { HrefAsset, HrefAssetPatch } from './href-assets.js';
import type { RegisterItem } from './item-commands.js';
import { noItemMetadata, type ItemRegistered } from './item-events.js';
import { foldState } from './state.js';

const NOW = '2026-11-21T12:00:00.000Z';

const thumbnail = (id = newId()): HrefAsset => ({
  id,
  key: 'thumbnail',
  asset: { href: 'https://example.org/scene/thumb.png', type: 'image/png', roles: ['thumbnail'] },
});

const visual = (id = newId()): HrefAsset => ({
  id,
  key: 'visual',
  asset: { href: 's3://bucket/scene/visual.tif', 'eo:bands': [{ name: 'red' }], 'proj:epsg': 32633 },
});

function register(id: string, assets: readonly HrefAsset[], parent = liveParent('collection')): RegisterItem {
  return {
    type: 'RegisterItem',
    data: {
      id,
      title: 'Scene',
      description: null,
      links: [],
      metadata: noItemMetadata,
      assets,
      stacId: null,
      parent,
      access: creator,
    },
  };
}

function registered(id: string, assets: readonly HrefAsset[], parentId = newId()): ItemRegistered {
  return {
    type: 'ItemRegistered',
    data: {
      id,
      title: 'Scene',
      description: null,
      parentId,
      links: [],
      metadata: noItemMetadata,
      assets,
      ...createdByCreator,
    },
  };
}

function patch(id: string, assetPatch: HrefAssetPatch): UpdatePortalObject {
  return { type: 'UpdatePortalObject', data: { id, changes: {}, assetPatch, ancestorDeleted: false } };
}

describe('registering an item with assets by href', () => {
  it('records the item with its assets as sent, ready and without an upload', () => {
    const id = newId();
    const parent = liveParent('collection');
    const assets = [thumbnail(), visual()];
    given()
      .when(register(id, assets, parent))
      .then([registered(id, assets, parent.id)]);
    const state = foldState([registered(id, assets, parent.id)]);
    expect(state).toMatchObject({ status: 'live', uploadStatus: 'ready', upload: null, hrefAssets: assets });
  });

  it('accepts an item without any asset', () => {
    const id = newId();
    const parent = liveParent('catalog');
    given()
      .when(register(id, [], parent))
      .then([registered(id, [], parent.id)]);
  });

  it.each([
    ['a relative href', { href: '/scene.tif' }, /absolute/],
    ['a file URL', { href: 'file:///etc/passwd' }, /http, https or s3/],
    ['an href that is not a string', { href: 42 }, /href must be a string/],
    ['roles that are not strings', { href: 'https://example.org/a', roles: [1] }, /roles must be/],
    ['an empty type', { href: 'https://example.org/a', type: '' }, /type must be/],
  ])('refuses %s', (_what, asset, message) => {
    const bad = { id: newId(), key: 'data', asset: asset as HrefAsset['asset'] };
    given()
      .when(register(newId(), [bad]))
      .thenFails('INVALID_COMMAND', message);
  });

  it.each(['', '-data', 'has space', 'a/b', 'x'.repeat(101)])('refuses the key %j', (key) => {
    const bad = { ...thumbnail(), key };
    given()
      .when(register(newId(), [bad]))
      .thenFails('INVALID_COMMAND', /asset key/);
  });

  it('refuses a key twice and more than 100 assets', () => {
    given()
      .when(register(newId(), [thumbnail(), thumbnail()]))
      .thenFails('INVALID_COMMAND', /given twice/);
    const many = Array.from({ length: 101 }, (_, n) => ({ ...thumbnail(), key: `band-${n}` }));
    given()
      .when(register(newId(), many))
      .thenFails('INVALID_COMMAND', /at most 100 assets/);
  });

  it('refuses the root level, as every item create does', () => {
    given()
      .when({ ...register(newId(), []), data: { ...register(newId(), []).data, parent: null } })
      .thenFails('INVALID_PARENT_KIND');
  });

  it('has no upload to complete, abort or hand out URLs for', () => {
    const id = newId();
    const history = registered(id, [thumbnail()]);
    given(history)
      .when({ type: 'RequestUploadCompletion', data: { id, parts: null, ancestorDeleted: false, now: NOW } })
      .thenFails('INVALID_STATE', /registered by href/);
    given(history)
      .when({ type: 'AbortUpload', data: { id, ancestorDeleted: false } })
      .thenFails('INVALID_STATE', /registered by href/);
    const deleted = decide(
      {
        type: 'DeletePortalObject',
        data: { id, recursive: false, hasChildren: false, ancestorDeleted: false },
      },
      foldState([history]),
    );
    // A tombstone of an item without an upload leaves nothing open to abort.
    expect(foldState([history, ...deleted])).not.toHaveProperty('openUploadId');
  });
});

describe('changing the assets by href of an item', () => {
  it('adds, replaces (keeping the id) and removes keys in one update, with the whole list before and after', () => {
    const id = newId();
    const oldThumb = thumbnail();
    const oldVisual = visual();
    const newThumb: HrefAsset = {
      id: newId(),
      key: 'thumbnail',
      asset: { href: 'https://example.org/t2.png' },
    };
    const added: HrefAsset = { id: newId(), key: 'metadata', asset: { href: 'https://example.org/m.xml' } };
    given(registered(id, [oldThumb, oldVisual]))
      .when(patch(id, { set: [newThumb, added], remove: ['visual'] }))
      .then([
        {
          type: 'PortalObjectUpdated',
          data: {
            id,
            kind: 'item',
            changes: { assets: [{ ...newThumb, id: oldThumb.id }, added] },
            previous: { assets: [oldThumb, oldVisual] },
          },
        },
      ]);
  });

  it('records nothing when the patch changes nothing (a missing key removed, an asset set as it is)', () => {
    const id = newId();
    const current = thumbnail();
    given(registered(id, [current]))
      .when(patch(id, { set: [{ ...current, id: newId() }], remove: ['absent'] }))
      .then([]);
  });

  it('replaces the whole list, keeping the ids of the keys that stay', () => {
    const id = newId();
    const current = thumbnail();
    const replacement = { ...thumbnail(), asset: { href: 'https://example.org/other.png' } };
    const command: UpdatePortalObject = {
      type: 'UpdatePortalObject',
      data: { id, changes: { assets: [replacement] }, ancestorDeleted: false },
    };
    const before = [current, visual()];
    given(registered(id, before))
      .when(command)
      .then([
        {
          type: 'PortalObjectUpdated',
          data: {
            id,
            kind: 'item',
            changes: { assets: [{ ...replacement, id: current.id }] },
            previous: { assets: before },
          },
        },
      ]);
  });

  it('checks the list the patch leaves', () => {
    const id = newId();
    const bad: HrefAsset = { id: newId(), key: 'data', asset: { href: 'ftp://example.org/a' } };
    given(registered(id, []))
      .when(patch(id, { set: [bad], remove: [] }))
      .thenFails('INVALID_COMMAND', /http, https or s3/);
  });

  it('refuses assets on a collection', () => {
    const id = newId();
    given(collectionCreated({ id }))
      .when(patch(id, { set: [thumbnail()], remove: [] }))
      .thenFails('INVALID_COMMAND', /items only/);
  });
});

describe("changing an item's metadata", () => {
  const metadata = {
    ...noItemMetadata,
    bbox: [10, 20, 11, 21] as const,
    datetime: '2024-06-01T10:30:00.000Z',
    properties: { 'eo:cloud_cover': 3 },
  };

  it('records the whole metadata before and after, and nothing when it is the same', () => {
    const id = newId();
    const change = (next: typeof metadata): UpdatePortalObject => ({
      type: 'UpdatePortalObject',
      data: { id, changes: { metadata: next }, ancestorDeleted: false },
    });
    given(registered(id, []))
      .when(change(metadata))
      .then([
        {
          type: 'PortalObjectUpdated',
          data: { id, kind: 'item', changes: { metadata }, previous: { metadata: noItemMetadata } },
        },
      ]);
    const history = [registered(id, []), ...decide(change(metadata), foldState([registered(id, [])]))];
    given(...history)
      .when(change({ ...metadata, properties: { 'eo:cloud_cover': 3 } }))
      .then([]);
    expect(foldState(history)).toMatchObject({ metadata });
  });

  it('refuses metadata on a collection', () => {
    const id = newId();
    given(collectionCreated({ id }))
      .when({ type: 'UpdatePortalObject', data: { id, changes: { metadata }, ancestorDeleted: false } })
      .thenFails('INVALID_COMMAND', /metadata does not apply/);
  });
});
