import { describe, it } from 'vitest';
import type { MovePortalObject, ParentLookup } from './commands.js';
import {
  catalogCreated,
  collectionCreated,
  given,
  liveParent,
  newId,
  testOrgId,
} from './decider-test-kit.js';

function move(
  id: string,
  parent: ParentLookup | null,
  subtreeHeight = 0,
  ancestorDeleted = false,
): MovePortalObject {
  return { type: 'MovePortalObject', data: { id, parent, subtreeHeight, ancestorDeleted } };
}

describe('MovePortalObject', () => {
  it('moves a catalog under another catalog', () => {
    const id = newId();
    const from = newId();
    const to = liveParent('catalog', { depth: 4 });
    given(catalogCreated({ id, parentId: from }))
      .when(move(id, to, 2))
      .then([
        { type: 'PortalObjectMoved', data: { id, kind: 'catalog', fromParentId: from, toParentId: to.id } },
      ]);
  });

  it('moves a collection to root level', () => {
    const id = newId();
    const from = newId();
    given(collectionCreated({ id, parentId: from }))
      .when(move(id, null))
      .then([
        { type: 'PortalObjectMoved', data: { id, kind: 'collection', fromParentId: from, toParentId: null } },
      ]);
  });

  it('moves a root-level catalog under a catalog', () => {
    const id = newId();
    const to = liveParent('catalog');
    given(catalogCreated({ id, parentId: null }))
      .when(move(id, to))
      .then([
        { type: 'PortalObjectMoved', data: { id, kind: 'catalog', fromParentId: null, toParentId: to.id } },
      ]);
  });

  it('is a no-op when the parent does not change', () => {
    const id = newId();
    const parent = liveParent('catalog', { depth: 2 });
    given(catalogCreated({ id, parentId: parent.id }))
      .when(move(id, parent, 5))
      .then([]);
    given(collectionCreated({ id, parentId: null }))
      .when(move(id, null))
      .then([]);
  });

  it('follows earlier moves', () => {
    const id = newId();
    const parent = liveParent('catalog');
    given(catalogCreated({ id, parentId: null }), {
      type: 'PortalObjectMoved',
      data: { id, kind: 'catalog', fromParentId: null, toParentId: parent.id },
    })
      .when(move(id, parent))
      .then([]);
  });

  it('refuses a move under itself', () => {
    const id = newId();
    given(catalogCreated({ id }))
      .when(move(id, liveParent('catalog', { id, depth: 1 })))
      .thenFails('CYCLE', new RegExp(`catalog ${id} cannot be placed under itself`));
  });

  it('refuses a move under its own direct child', () => {
    const id = newId();
    const child = liveParent('catalog', { depth: 2, ancestorIds: [id] });
    given(catalogCreated({ id }))
      .when(move(id, child, 1))
      .thenFails('CYCLE', new RegExp(`under its own descendant ${child.id}`));
  });

  it('refuses a move under a deep descendant', () => {
    const grandparent = newId();
    const id = newId();
    const descendant = liveParent('catalog', {
      depth: 6,
      ancestorIds: [grandparent, id, newId(), newId(), newId()],
    });
    given(catalogCreated({ id, parentId: grandparent }))
      .when(move(id, descendant, 5))
      .thenFails('CYCLE');
  });

  it('refuses a parent of the wrong kind', () => {
    const id = newId();
    const parent = liveParent('collection');
    given(catalogCreated({ id }))
      .when(move(id, parent))
      .thenFails(
        'INVALID_PARENT_KIND',
        new RegExp(`^parent ${parent.id}: a collection cannot contain a catalog$`),
      );
    given(collectionCreated({ id }))
      .when(move(id, liveParent('item')))
      .thenFails('INVALID_PARENT_KIND', /an item cannot contain a collection/);
  });

  it('refuses a missing or deleted parent', () => {
    const id = newId();
    given(catalogCreated({ id }))
      .when(move(id, { found: false, id: newId() }))
      .thenFails('PARENT_NOT_FOUND', /does not exist/);
    given(catalogCreated({ id }))
      .when(move(id, { ...liveParent('catalog'), deleted: true }))
      .thenFails('PARENT_NOT_FOUND', /was deleted/);
  });

  it('accepts a subtree whose deepest level lands at 32 and refuses 33', () => {
    const id = newId();
    const parentAt30 = liveParent('catalog', { depth: 30 });
    given(catalogCreated({ id }))
      .when(move(id, parentAt30, 1))
      .then([
        {
          type: 'PortalObjectMoved',
          data: { id, kind: 'catalog', fromParentId: null, toParentId: parentAt30.id },
        },
      ]);
    given(catalogCreated({ id }))
      .when(move(id, liveParent('catalog', { depth: 31 }), 1))
      .thenFails(
        'DEPTH_EXCEEDED',
        /would sit at depth 32 and its deepest descendant at depth 33; the maximum/,
      );
  });

  it('accepts a leaf moved to depth 32 and refuses depth 33', () => {
    const id = newId();
    const parentAt31 = liveParent('catalog', { depth: 31 });
    given(collectionCreated({ id }))
      .when(move(id, parentAt31))
      .then([
        {
          type: 'PortalObjectMoved',
          data: { id, kind: 'collection', fromParentId: null, toParentId: parentAt31.id },
        },
      ]);
    given(collectionCreated({ id }))
      .when(move(id, liveParent('catalog', { depth: 32 })))
      .thenFails('DEPTH_EXCEEDED', /would sit at depth 33;/);
  });

  it('bounds a move to root level by the subtree height too', () => {
    const id = newId();
    const from = newId();
    given(catalogCreated({ id, parentId: from }))
      .when(move(id, null, 31))
      .then([
        { type: 'PortalObjectMoved', data: { id, kind: 'catalog', fromParentId: from, toParentId: null } },
      ]);
    given(catalogCreated({ id, parentId: from }))
      .when(move(id, null, 32))
      .thenFails(
        'DEPTH_EXCEEDED',
        /at root level would sit at depth 1 and its deepest descendant at depth 33/,
      );
  });

  it('refuses an absent, deleted or ancestor-deleted object', () => {
    const id = newId();
    given()
      .when(move(id, null))
      .thenFails('NOT_FOUND', /does not exist/);
    given(catalogCreated({ id }), {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'catalog', recursive: true },
    })
      .when(move(id, liveParent('catalog')))
      .thenFails('NOT_FOUND', /was deleted/);
    given(catalogCreated({ id, parentId: newId() }))
      .when(move(id, null, 0, true))
      .thenFails('NOT_FOUND', /with an ancestor/);
  });

  it('refuses a parent of another organization: objects never change organization', () => {
    const id = newId();
    const elsewhere = liveParent('catalog', { orgId: newId() });
    given(catalogCreated({ id }))
      .when(move(id, elsewhere))
      .thenFails(
        'ORGANIZATION_MISMATCH',
        new RegExp(
          `^catalog ${id} cannot move under parent ${elsewhere.id}: it belongs to another organization$`,
        ),
      );
    // An object from before identity belongs to no organization, and a parent of one to an organization.
    given(collectionCreated({ id, orgId: null }))
      .when(move(id, liveParent('catalog')))
      .thenFails('ORGANIZATION_MISMATCH');
  });

  it('moves within its organization', () => {
    const id = newId();
    const from = newId();
    const sameOrganization = liveParent('catalog', { orgId: testOrgId });
    given(catalogCreated({ id, parentId: from, orgId: testOrgId }))
      .when(move(id, sameOrganization))
      .then([
        {
          type: 'PortalObjectMoved',
          data: { id, kind: 'catalog', fromParentId: from, toParentId: sameOrganization.id },
        },
      ]);
  });
});
