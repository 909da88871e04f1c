import { describe, it } from 'vitest';
import type { DeletePortalObject } from './commands.js';
import { catalogCreated, collectionCreated, creator, given, liveParent, newId } from './decider-test-kit.js';
import type { PortalObjectDeleted } from './events.js';

function remove(
  id: string,
  options: { recursive?: boolean; hasChildren?: boolean; ancestorDeleted?: boolean } = {},
): DeletePortalObject {
  return {
    type: 'DeletePortalObject',
    data: {
      id,
      recursive: options.recursive ?? false,
      hasChildren: options.hasChildren ?? false,
      ancestorDeleted: options.ancestorDeleted ?? false,
    },
  };
}

function deleted(id: string, kind: 'catalog' | 'collection', recursive = false): PortalObjectDeleted {
  return { type: 'PortalObjectDeleted', data: { id, kind, recursive } };
}

describe('DeletePortalObject', () => {
  it('deletes an empty object', () => {
    const id = newId();
    given(collectionCreated({ id }))
      .when(remove(id))
      .then([deleted(id, 'collection')]);
  });

  it('refuses an object with live children unless recursive', () => {
    const id = newId();
    given(catalogCreated({ id }))
      .when(remove(id, { hasChildren: true }))
      .thenFails('NOT_EMPTY', new RegExp(`^catalog ${id} still has children`));
  });

  it('deletes an object with children when recursive', () => {
    const id = newId();
    given(catalogCreated({ id }))
      .when(remove(id, { hasChildren: true, recursive: true }))
      .then([deleted(id, 'catalog', true)]);
  });

  it('records recursive even without children, as the client asked', () => {
    const id = newId();
    given(catalogCreated({ id }))
      .when(remove(id, { recursive: true }))
      .then([deleted(id, 'catalog', true)]);
  });

  it('refuses an absent object, a second delete and a delete below a deleted ancestor', () => {
    const id = newId();
    given()
      .when(remove(id))
      .thenFails('NOT_FOUND', /does not exist/);
    given(catalogCreated({ id }), deleted(id, 'catalog'))
      .when(remove(id))
      .thenFails('NOT_FOUND', /was deleted/);
    given(collectionCreated({ id, parentId: newId() }))
      .when(remove(id, { ancestorDeleted: true }))
      .thenFails('NOT_FOUND', /with an ancestor/);
  });
});

describe('commands after a delete', () => {
  it('refuses update, move and delete with NOT_FOUND, and create with ALREADY_EXISTS', () => {
    const id = newId();
    const history = [collectionCreated({ id }), deleted(id, 'collection')] as const;
    given(...history)
      .when({ type: 'UpdatePortalObject', data: { id, changes: { title: 'x' }, ancestorDeleted: false } })
      .thenFails('NOT_FOUND');
    given(...history)
      .when({
        type: 'MovePortalObject',
        data: { id, parent: liveParent('catalog'), subtreeHeight: 0, ancestorDeleted: false },
      })
      .thenFails('NOT_FOUND');
    given(...history)
      .when({
        type: 'DeletePortalObject',
        data: { id, recursive: true, hasChildren: false, ancestorDeleted: false },
      })
      .thenFails('NOT_FOUND');
    given(...history)
      .when({
        type: 'CreateCollection',
        data: { id, title: 'Again', description: 'd', links: [], parent: null, access: creator },
      })
      .thenFails('ALREADY_EXISTS');
  });
});
