import { describe, it } from 'vitest';
import type { SharePrincipal } from '../access/object-access.js';
import type { SharePermission, Visibility } from '../access/roles.js';
import type { ChangeVisibility, ShareObject, UnshareObject } from './access-commands.js';
import { catalogCreated, collectionCreated, given, newId } from './decider-test-kit.js';
import type { ObjectShared, PortalObjectDeleted } from './events.js';

function changeVisibility(id: string, visibility: Visibility, ancestorDeleted = false): ChangeVisibility {
  return { type: 'ChangeVisibility', data: { id, visibility, ancestorDeleted } };
}

function share(
  id: string,
  principal: SharePrincipal,
  permission: SharePermission,
  options: { principalExists?: boolean; ancestorDeleted?: boolean; sharedBy?: string } = {},
): ShareObject {
  const { principalExists = true, ancestorDeleted = false, sharedBy = newId() } = options;
  return {
    type: 'ShareObject',
    data: { id, principal, permission, principalExists, sharedBy, ancestorDeleted },
  };
}

function unshare(id: string, principal: SharePrincipal, ancestorDeleted = false): UnshareObject {
  return { type: 'UnshareObject', data: { id, principal, ancestorDeleted } };
}

function shared(id: string, principal: SharePrincipal, permission: SharePermission): ObjectShared {
  return { type: 'ObjectShared', data: { id, kind: 'catalog', principal, permission, previous: null } };
}

const deleted = (id: string, recursive = false): PortalObjectDeleted => ({
  type: 'PortalObjectDeleted',
  data: { id, kind: 'catalog', recursive },
});

const aUser = (): SharePrincipal => ({ type: 'user', id: newId() });
const anOrganization = (): SharePrincipal => ({ type: 'organization', id: newId() });

describe('ChangeVisibility', () => {
  it('records the change with both sides', () => {
    const id = newId();
    given(collectionCreated({ id, visibility: 'org' }))
      .when(changeVisibility(id, 'private'))
      .then([{ type: 'VisibilityChanged', data: { id, kind: 'collection', from: 'org', to: 'private' } }]);
  });

  it('follows earlier changes', () => {
    const id = newId();
    given(catalogCreated({ id, visibility: 'org' }), {
      type: 'VisibilityChanged',
      data: { id, kind: 'catalog', from: 'org', to: 'public' },
    })
      .when(changeVisibility(id, 'org'))
      .then([{ type: 'VisibilityChanged', data: { id, kind: 'catalog', from: 'public', to: 'org' } }]);
  });

  it('records nothing when the visibility is already that', () => {
    const id = newId();
    given(catalogCreated({ id, visibility: 'public' }))
      .when(changeVisibility(id, 'public'))
      .then([]);
  });

  it('refuses a missing, deleted or buried object like an update does', () => {
    const id = newId();
    given()
      .when(changeVisibility(id, 'public'))
      .thenFails('NOT_FOUND', /does not exist/);
    given(catalogCreated({ id }), deleted(id))
      .when(changeVisibility(id, 'public'))
      .thenFails('NOT_FOUND', /was deleted$/);
    given(catalogCreated({ id }))
      .when(changeVisibility(id, 'public', true))
      .thenFails('NOT_FOUND', /deleted with an ancestor/);
  });
});

describe('ShareObject', () => {
  it('shares with a user or an organization', () => {
    const id = newId();
    const user = aUser();
    const organization = anOrganization();
    given(catalogCreated({ id }))
      .when(share(id, user, 'viewer'))
      .then([shared(id, user, 'viewer')]);
    given(catalogCreated({ id }))
      .when(share(id, organization, 'editor'))
      .then([shared(id, organization, 'editor')]);
  });

  it('replaces the share of the same principal, naming the one it replaces', () => {
    const id = newId();
    const user = aUser();
    given(catalogCreated({ id }), shared(id, user, 'viewer'))
      .when(share(id, user, 'editor'))
      .then([
        {
          type: 'ObjectShared',
          data: {
            id,
            kind: 'catalog',
            principal: user,
            permission: 'editor',
            previous: { principal: user, permission: 'viewer' },
          },
        },
      ]);
  });

  it('records nothing for a share that already exists', () => {
    const id = newId();
    const user = aUser();
    given(catalogCreated({ id }), shared(id, user, 'editor'))
      .when(share(id, { ...user }, 'editor'))
      .then([]);
  });

  it('tells a user and an organization with the same id apart', () => {
    const id = newId();
    const principalId = newId();
    given(catalogCreated({ id }), shared(id, { type: 'user', id: principalId }, 'viewer'))
      .when(share(id, { type: 'organization', id: principalId }, 'viewer'))
      .then([shared(id, { type: 'organization', id: principalId }, 'viewer')]);
  });

  it('refuses a principal that does not exist', () => {
    const id = newId();
    const user = aUser();
    given(catalogCreated({ id }))
      .when(share(id, user, 'viewer', { principalExists: false }))
      .thenFails('INVALID_COMMAND', new RegExp(`^principal: user ${user.id} does not exist$`));
  });

  it('refuses a share to the user giving it: rights through membership must end with it', () => {
    const id = newId();
    const me = aUser();
    given(catalogCreated({ id }))
      .when(share(id, me, 'editor', { sharedBy: me.id }))
      .thenFails('INVALID_COMMAND', /cannot share an object with yourself/);
  });

  it('refuses a deleted or buried object', () => {
    const id = newId();
    given(catalogCreated({ id }), deleted(id, true))
      .when(share(id, aUser(), 'viewer'))
      .thenFails('NOT_FOUND', /was deleted/);
    given(catalogCreated({ id }))
      .when(share(id, aUser(), 'viewer', { ancestorDeleted: true }))
      .thenFails('NOT_FOUND', /deleted with an ancestor/);
  });
});

describe('UnshareObject', () => {
  it('removes a share, recording the permission it gave', () => {
    const id = newId();
    const organization = anOrganization();
    given(catalogCreated({ id }), shared(id, organization, 'editor'))
      .when(unshare(id, organization))
      .then([
        {
          type: 'ObjectUnshared',
          data: { id, kind: 'catalog', principal: organization, permission: 'editor' },
        },
      ]);
  });

  it('answers NOT_FOUND for a share that does not exist (or no longer does)', () => {
    const id = newId();
    const user = aUser();
    given(catalogCreated({ id }))
      .when(unshare(id, user))
      .thenFails('NOT_FOUND', /^share not found/);
    given(catalogCreated({ id }), shared(id, user, 'viewer'), {
      type: 'ObjectUnshared',
      data: { id, kind: 'catalog', principal: user, permission: 'viewer' },
    })
      .when(unshare(id, user))
      .thenFails('NOT_FOUND', /^share not found/);
    given(catalogCreated({ id }), shared(id, user, 'viewer'))
      .when(unshare(id, { type: 'organization', id: user.id }))
      .thenFails('NOT_FOUND', /^share not found/);
  });

  it('refuses a deleted or buried object', () => {
    const id = newId();
    const user = aUser();
    given(catalogCreated({ id }), shared(id, user, 'viewer'), deleted(id))
      .when(unshare(id, user))
      .thenFails('NOT_FOUND', /was deleted$/);
    given(catalogCreated({ id }), shared(id, user, 'viewer'))
      .when(unshare(id, user, true))
      .thenFails('NOT_FOUND', /deleted with an ancestor/);
  });
});
