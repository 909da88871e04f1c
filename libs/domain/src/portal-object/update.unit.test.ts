import { describe, it } from 'vitest';
import type { UpdatePortalObject } from './commands.js';
import { aLink, catalogCreated, collectionCreated, given, newId } from './decider-test-kit.js';
import type { PortalObjectChanges } from './events.js';
import type { CollectionExtent } from './types.js';

function update(id: string, changes: PortalObjectChanges, ancestorDeleted = false): UpdatePortalObject {
  return { type: 'UpdatePortalObject', data: { id, changes, ancestorDeleted } };
}

const extent: CollectionExtent = {
  spatial: { bbox: [[-10, 35, 30, 60]] },
  temporal: { interval: [['2015-06-23T00:00:00Z', null]] },
};

describe('UpdatePortalObject', () => {
  it('records only the fields that change, with their previous values', () => {
    const id = newId();
    const oldLinks = [aLink('https://example.org/a')];
    const newLinks = [aLink('https://example.org/b')];
    given(catalogCreated({ id, title: 'Old', description: 'Same', links: oldLinks }))
      .when(update(id, { title: 'New', description: 'Same', links: newLinks }))
      .then([
        {
          type: 'PortalObjectUpdated',
          data: {
            id,
            kind: 'catalog',
            changes: { title: 'New', links: newLinks },
            previous: { title: 'Old', links: oldLinks },
          },
        },
      ]);
  });

  it('produces no event when nothing changes', () => {
    const id = newId();
    given(catalogCreated({ id, title: 'Same', links: [aLink('https://example.org/a', { a: 1, b: [1, 2] })] }))
      .when(update(id, { title: 'Same', links: [aLink('https://example.org/a', { b: [1, 2], a: 1 })] }))
      .then([]);
  });

  it('produces no event for an empty change set', () => {
    const id = newId();
    given(catalogCreated({ id })).when(update(id, {})).then([]);
  });

  it('sees a reordered link list as a change', () => {
    const id = newId();
    const first = aLink('https://example.org/1');
    const second = aLink('https://example.org/2');
    given(catalogCreated({ id, links: [first, second] }))
      .when(update(id, { links: [second, first] }))
      .then([
        {
          type: 'PortalObjectUpdated',
          data: {
            id,
            kind: 'catalog',
            changes: { links: [second, first] },
            previous: { links: [first, second] },
          },
        },
      ]);
  });

  it('changes the collection fields of a collection', () => {
    const id = newId();
    given(collectionCreated({ id, license: 'other', keywords: ['a'], extent: null }))
      .when(update(id, { license: 'CC-BY-4.0', keywords: ['a'], extent }))
      .then([
        {
          type: 'PortalObjectUpdated',
          data: {
            id,
            kind: 'collection',
            changes: { license: 'CC-BY-4.0', extent },
            previous: { license: 'other', extent: null },
          },
        },
      ]);
  });

  it('sets a given extent back to null (computed by the projector)', () => {
    const id = newId();
    given(collectionCreated({ id, extent }))
      .when(update(id, { extent: null }))
      .then([
        {
          type: 'PortalObjectUpdated',
          data: { id, kind: 'collection', changes: { extent: null }, previous: { extent } },
        },
      ]);
  });

  it('compares against the state after earlier updates', () => {
    const id = newId();
    given(collectionCreated({ id, keywords: [] }), {
      type: 'PortalObjectUpdated',
      data: { id, kind: 'collection', changes: { keywords: ['x'] }, previous: { keywords: [] } },
    })
      .when(update(id, { keywords: ['x'] }))
      .then([]);
  });

  it('refuses collection-only fields on a catalog', () => {
    const id = newId();
    given(catalogCreated({ id }))
      .when(update(id, { title: 'New', license: 'MIT', keywords: ['k'] }))
      .thenFails(
        'INVALID_COMMAND',
        new RegExp(`^catalog ${id}: license, keywords do not apply to a catalog`),
      );
    given(catalogCreated({ id }))
      .when(update(id, { extent: null }))
      .thenFails('INVALID_COMMAND', /extent does not apply to a catalog/);
  });

  it('refuses an object that does not exist', () => {
    const id = newId();
    given()
      .when(update(id, { title: 'x' }))
      .thenFails('NOT_FOUND', new RegExp(`portal object ${id} does not exist`));
  });

  it('refuses a deleted object', () => {
    const id = newId();
    given(collectionCreated({ id }), {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'collection', recursive: false },
    })
      .when(update(id, { title: 'x' }))
      .thenFails('NOT_FOUND', new RegExp(`collection ${id} was deleted`));
  });

  it('refuses an object whose ancestor was deleted', () => {
    const id = newId();
    given(catalogCreated({ id, parentId: newId() }))
      .when(update(id, { title: 'x' }, true))
      .thenFails('NOT_FOUND', /was deleted with an ancestor/);
  });
});
