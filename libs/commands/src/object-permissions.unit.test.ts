import { describe, expect, it } from 'vitest';
import {
  anonymous,
  DomainError,
  foldOrganization,
  isAdminOf,
  widensAccess,
  type Caller,
  type DomainErrorCode,
  type ObjectAccess,
  type ObjectAction,
  type Role,
  type Share,
} from '@portal/domain';
import { currentRole } from './caller-role.js';
import {
  newObjectAccess,
  requireAccessTo,
  requireCreateRights,
  requireMoveTarget,
  type MovedObject,
} from './object-permissions.js';
import type { FoundParent } from './object-repository.js';

const newId = (): string => crypto.randomUUID();
const orgA = newId();
const orgB = newId();
const creatorId = newId();

type Member = Caller & { readonly userId: string };
const member = (role: Role, orgId = orgA, userId = newId()): Member => ({ userId, orgId, role });
const owner = member('owner');
const admin = member('admin');
const editor = member('editor');
const viewer = member('viewer');
/** An editor of organization A who created the objects below. */
const creator = member('editor', orgA, creatorId);
/** The same creator after being demoted to viewer (or acting through a viewer-role API key). */
const demotedCreator = member('viewer', orgA, creatorId);
const outsiderEditor = member('editor', orgB);
const outsiderViewer = member('viewer', orgB);
/** Signed in, but a member of no organization (or removed from the active one). */
const nobody: Caller = { userId: newId(), orgId: orgA, role: null };

function access(overrides: Partial<ObjectAccess> = {}): ObjectAccess {
  return { orgId: orgA, visibility: 'org', createdBy: creatorId, shares: [], ...overrides };
}

const orgObject = [access()];
const privateObject = [access({ visibility: 'private' })];
const publicObject = [access({ visibility: 'public' })];
/** Created before identity: belongs to no organization, public, nobody may change it. */
const legacyObject = [access({ orgId: null, visibility: 'public', createdBy: null })];

function refusal(run: () => void): DomainErrorCode | 'allowed' {
  try {
    run();
    return 'allowed';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

/** The refusal of `action`, and its message: what the caller is told. */
function answer(
  caller: Caller,
  accessPath: readonly ObjectAccess[] | null,
  action: ObjectAction,
  deleted = false,
): { code: DomainErrorCode | 'allowed'; message: string } {
  try {
    requireAccessTo(caller, { accessPath, deleted }, action, 'portal item x');
    return { code: 'allowed', message: '' };
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
}

const edit = (caller: Caller, path: readonly ObjectAccess[] | null, deleted = false) =>
  answer(caller, path, 'edit', deleted).code;
const manage = (caller: Caller, path: readonly ObjectAccess[], deleted = false) =>
  answer(caller, path, 'manage', deleted).code;

describe('rights on an existing object (update, move, delete, uploads: edit; visibility, shares: manage)', () => {
  it("lets editors and up change the organization's objects, and refuses viewers with 403", () => {
    for (const caller of [owner, admin, editor]) expect(edit(caller, orgObject)).toBe('allowed');
    expect(edit(viewer, orgObject)).toBe('FORBIDDEN');
    expect(edit(nobody, orgObject)).toBe('NOT_FOUND');
  });

  it('answers 404 to whoever cannot read the object, and 401 to an anonymous caller who can', () => {
    expect(edit(anonymous, orgObject)).toBe('NOT_FOUND');
    expect(edit(outsiderEditor, orgObject)).toBe('NOT_FOUND');
    expect(edit(anonymous, publicObject)).toBe('UNAUTHENTICATED');
    expect(edit(outsiderEditor, publicObject)).toBe('FORBIDDEN');
  });

  it('keeps private objects to admins, owners and their creator', () => {
    expect(edit(editor, privateObject)).toBe('NOT_FOUND');
    expect(edit(viewer, privateObject)).toBe('NOT_FOUND');
    for (const caller of [owner, admin, creator]) {
      expect(edit(caller, privateObject)).toBe('allowed');
      expect(manage(caller, privateObject)).toBe('allowed');
    }
  });

  it('lets only admins, owners and the creator manage who sees an object', () => {
    expect(manage(editor, orgObject)).toBe('FORBIDDEN');
    expect(manage(viewer, orgObject)).toBe('FORBIDDEN');
    expect(manage(creator, orgObject)).toBe('allowed');
    expect(manage(admin, orgObject)).toBe('allowed');
    expect(manage(anonymous, publicObject)).toBe('UNAUTHENTICATED');
  });

  it('lets a creator without the editor role read their private objects, and no more', () => {
    expect(edit(demotedCreator, privateObject)).toBe('FORBIDDEN');
    expect(manage(demotedCreator, privateObject)).toBe('FORBIDDEN');
    expect(edit(demotedCreator, orgObject)).toBe('FORBIDDEN');
  });

  it("ends a creator's rights when they leave the organization", () => {
    const former: Caller = { userId: creatorId, orgId: orgA, role: null };
    expect(edit(former, privateObject)).toBe('NOT_FOUND');
    const elsewhere: Caller = { userId: creatorId, orgId: orgB, role: 'owner' };
    expect(manage(elsewhere, orgObject)).toBe('NOT_FOUND');
  });

  it('lets nobody change an object from before identity, though everyone reads it', () => {
    for (const caller of [owner, admin, editor, outsiderEditor]) {
      expect(edit(caller, legacyObject)).toBe('FORBIDDEN');
      expect(manage(caller, legacyObject)).toBe('FORBIDDEN');
    }
    expect(edit(anonymous, legacyObject)).toBe('UNAUTHENTICATED');
  });

  it('applies the narrowest visibility on the path: a public object in a private catalog is private', () => {
    const path = [
      access({ visibility: 'private' }),
      access({ visibility: 'public', createdBy: editor.userId }),
    ];
    expect(edit(anonymous, path)).toBe('NOT_FOUND');
    expect(edit(viewer, path)).toBe('NOT_FOUND');
    expect(edit(editor, path)).toBe('allowed');
  });

  it('adds the rights of shares on the object and its ancestors', () => {
    const share = (principal: Share['principal'], permission: Share['permission']): Share => ({
      principal,
      permission,
    });
    const sharedWithUser = [
      access({
        visibility: 'private',
        shares: [share({ type: 'user', id: outsiderViewer.userId }, 'editor')],
      }),
      access(),
    ];
    expect(edit(outsiderViewer, sharedWithUser)).toBe('allowed');
    expect(manage(outsiderViewer, sharedWithUser)).toBe('FORBIDDEN');

    const viewableByOrgB = [access({ shares: [share({ type: 'organization', id: orgB }, 'viewer')] })];
    expect(edit(outsiderEditor, viewableByOrgB)).toBe('FORBIDDEN');

    const editableByOrgB = [access({ shares: [share({ type: 'organization', id: orgB }, 'editor')] })];
    expect(edit(outsiderEditor, editableByOrgB)).toBe('allowed');
    expect(edit(outsiderViewer, editableByOrgB)).toBe('FORBIDDEN');
  });

  it('stops a share at an object private on its own, whose own shares still apply', () => {
    const toOutsider: Share = {
      principal: { type: 'user', id: outsiderViewer.userId },
      permission: 'editor',
    };
    const sharedCatalog = access({ shares: [toOutsider] });
    const othersPrivate = access({ visibility: 'private', createdBy: admin.userId });
    // The shared catalog and an org-visible child are the outsider's; the private child is not, nor below it.
    expect(edit(outsiderViewer, [sharedCatalog])).toBe('allowed');
    expect(edit(outsiderViewer, [sharedCatalog, access()])).toBe('allowed');
    expect(edit(outsiderViewer, [sharedCatalog, othersPrivate])).toBe('NOT_FOUND');
    expect(edit(outsiderViewer, [sharedCatalog, othersPrivate, access()])).toBe('NOT_FOUND');
    // Shared itself, the private object is reached, and what is below it too.
    const sharedPrivate = access({ visibility: 'private', createdBy: admin.userId, shares: [toOutsider] });
    expect(edit(outsiderViewer, [access(), sharedPrivate])).toBe('allowed');
    expect(edit(outsiderViewer, [access(), sharedPrivate, access()])).toBe('allowed');
    // A private object at the top stops nothing above it: its own shares reach everything below.
    expect(edit(outsiderViewer, [access({ visibility: 'private', shares: [toOutsider] }), access()])).toBe(
      'allowed',
    );
  });

  it('answers a deleted object the caller could not read exactly as an unknown id', () => {
    const unknown = { code: 'NOT_FOUND', message: 'portal item x not found' };
    for (const caller of [outsiderEditor, anonymous, editor, nobody]) {
      expect(answer(caller, privateObject, 'edit', true)).toStrictEqual(unknown);
      expect(answer(caller, privateObject, 'manage', true)).toStrictEqual(unknown);
    }
    // Below a deleted private catalog, a public object is as hidden as its ancestor was.
    const belowPrivate = [access({ visibility: 'private' }), access({ visibility: 'public' })];
    expect(answer(outsiderEditor, belowPrivate, 'edit', true)).toStrictEqual(unknown);
  });

  it('leaves a deleted object the caller could read to the decider, which says it was deleted', () => {
    for (const caller of [owner, admin, creator]) expect(edit(caller, privateObject, true)).toBe('allowed');
    // Rights to change it no longer matter: it is gone, and the reader may be told so.
    expect(edit(viewer, orgObject, true)).toBe('allowed');
    expect(manage(editor, orgObject, true)).toBe('allowed');
    expect(edit(anonymous, publicObject, true)).toBe('allowed');
  });

  it('refuses everyone as missing when an ancestor is missing from the store (no access path)', () => {
    expect(edit(owner, null)).toBe('NOT_FOUND');
    expect(edit(owner, null, true)).toBe('NOT_FOUND');
  });
});

function parent(path: readonly ObjectAccess[] | null, id = newId(), deleted = false): FoundParent {
  return {
    lookup: { found: true, id, kind: 'catalog', depth: 1, ancestorIds: [], deleted, orgId: orgA },
    accessPath: path,
  };
}

/** What requireCreateRights tells the caller about the parent: the code and the message. */
function parentAnswer(caller: Caller, under: FoundParent): { code: string; message: string } {
  try {
    requireCreateRights(caller, 'catalog', under);
    return { code: 'allowed', message: '' };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('rights to create', () => {
  const create = (caller: Caller, under: FoundParent | null) =>
    refusal(() => {
      requireCreateRights(caller, 'catalog', under);
    });

  it('needs the editor role in the active organization at root level', () => {
    for (const caller of [owner, admin, editor]) expect(create(caller, null)).toBe('allowed');
    expect(create(viewer, null)).toBe('FORBIDDEN');
    expect(create(nobody, null)).toBe('FORBIDDEN');
    expect(create({ userId: newId(), orgId: null, role: null }, null)).toBe('FORBIDDEN');
  });

  it('refuses anonymous callers with 401, whatever the parent', () => {
    expect(create(anonymous, null)).toBe('UNAUTHENTICATED');
    expect(create(anonymous, parent(publicObject))).toBe('UNAUTHENTICATED');
    expect(create(anonymous, parent(privateObject))).toBe('UNAUTHENTICATED');
  });

  it('needs edit rights on the parent', () => {
    expect(create(editor, parent(orgObject))).toBe('allowed');
    expect(create(creator, parent(privateObject))).toBe('allowed');
    expect(create(demotedCreator, parent(privateObject))).toBe('FORBIDDEN');
    expect(create(viewer, parent(orgObject))).toBe('FORBIDDEN');
    expect(create(outsiderEditor, parent(publicObject))).toBe('FORBIDDEN');
  });

  it('answers a parent the caller cannot read exactly like a missing one', () => {
    const id = newId();
    let message = '';
    try {
      requireCreateRights(editor, 'catalog', parent(privateObject, id));
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('PARENT_NOT_FOUND');
      message = (error as DomainError).message;
    }
    expect(message).toBe(`parent ${id} does not exist`);
  });

  it('leaves a missing parent, and a deleted one the caller could read, to the decider', () => {
    expect(create(editor, { lookup: { found: false, id: newId() }, accessPath: null })).toBe('allowed');
    expect(create(editor, parent(orgObject, newId(), true))).toBe('allowed');
    // Deleted: even a viewer learns only what the decider says (it was deleted), not that they may not edit.
    expect(create(viewer, parent(orgObject, newId(), true))).toBe('allowed');
  });

  it('answers a deleted parent the caller could not read exactly like a missing one', () => {
    const id = newId();
    const missing = { code: 'PARENT_NOT_FOUND', message: `parent ${id} does not exist` };
    expect(parentAnswer(outsiderEditor, parent(privateObject, id, true))).toStrictEqual(missing);
    expect(parentAnswer(editor, parent(privateObject, id, true))).toStrictEqual(missing);
    expect(parentAnswer(outsiderEditor, parent(orgObject, id, true))).toStrictEqual(missing);
    // An ancestor missing from the store: nothing grants anything there.
    expect(parentAnswer(owner, parent(null, id, true))).toStrictEqual(missing);
  });

  it('records the caller, their organization and the visibility asked (org by default)', () => {
    expect(newObjectAccess(editor, undefined)).toStrictEqual({ orgId: orgA, createdBy: editor.userId });
    expect(newObjectAccess(editor, 'private')).toStrictEqual({
      orgId: orgA,
      createdBy: editor.userId,
      visibility: 'private',
    });
  });
});

describe('rights to move to a new place (beside edit rights on the object)', () => {
  const currentParentId = newId();
  const object: MovedObject = { what: 'portal item x', orgId: orgA, parentId: currentParentId };
  const moveTo = (caller: Caller, to: FoundParent | null, moved = object) =>
    refusal(() => {
      requireMoveTarget(caller, moved, to);
    });

  it('needs edit rights on the new parent, and hides one the caller cannot read', () => {
    expect(moveTo(editor, parent(orgObject))).toBe('allowed');
    expect(moveTo(viewer, parent(orgObject))).toBe('FORBIDDEN');
    expect(moveTo(editor, parent(privateObject))).toBe('PARENT_NOT_FOUND');
  });

  it("needs the editor role in the object's own organization for its root level", () => {
    expect(moveTo(editor, null)).toBe('allowed');
    expect(moveTo(demotedCreator, null)).toBe('FORBIDDEN');
    expect(moveTo(outsiderEditor, null)).toBe('FORBIDDEN');
  });

  it('asks nothing more when the object stays where it is', () => {
    expect(moveTo(viewer, parent(orgObject, currentParentId))).toBe('allowed');
    expect(moveTo(viewer, null, { ...object, parentId: null })).toBe('allowed');
  });
});

describe('whether a new place widens access', () => {
  const toOutsider: Share = { principal: { type: 'user', id: outsiderViewer.userId }, permission: 'viewer' };
  const moved = access();

  it('is true when a share of the new place reaches the object', () => {
    expect(widensAccess([access(), moved], [access({ shares: [toOutsider] }), moved])).toBe(true);
  });

  it('is true when the new path is broader than the old one', () => {
    expect(widensAccess([access({ visibility: 'private' }), moved], [access(), moved])).toBe(true);
    const publicObject = access({ visibility: 'public' });
    expect(widensAccess([access(), publicObject], [access({ visibility: 'public' }), publicObject])).toBe(
      true,
    );
  });

  it('is false for a narrower or an equal place, and for a private object shares cannot reach', () => {
    expect(widensAccess([access(), moved], [access({ visibility: 'private' }), moved])).toBe(false);
    expect(widensAccess([access(), moved], [access(), access(), moved])).toBe(false);
    const privateObject = access({ visibility: 'private' });
    expect(widensAccess([access(), privateObject], [access({ shares: [toOutsider] }), privateObject])).toBe(
      false,
    );
  });

  it('knows an admin of the organization from everyone else', () => {
    expect(isAdminOf(admin, orgA)).toBe(true);
    expect(isAdminOf(owner, orgA)).toBe(true);
    expect(isAdminOf(editor, orgA)).toBe(false);
    expect(isAdminOf(owner, orgB)).toBe(false);
    expect(isAdminOf(owner, null)).toBe(false);
  });
});

describe('the role a command acts with', () => {
  const organization = foldOrganization([
    {
      type: 'OrganizationCreated',
      data: { orgId: orgA, name: 'A', slug: 'a', personal: false, createdBy: owner.userId },
    },
    { type: 'MemberAdded', data: { orgId: orgA, userId: admin.userId, role: 'admin', invitationId: null } },
    { type: 'MemberAdded', data: { orgId: orgA, userId: editor.userId, role: 'editor', invitationId: null } },
    { type: 'MemberRemoved', data: { orgId: orgA, userId: editor.userId, role: 'editor' } },
  ]);

  it("is the member's current role in the organization's stream", () => {
    expect(currentRole(organization, admin.userId, null)).toBe('admin');
    expect(currentRole(organization, editor.userId, null)).toBeNull();
    expect(currentRole(organization, newId(), null)).toBeNull();
    expect(currentRole(foldOrganization([]), admin.userId, 'owner')).toBeNull();
  });

  it("is capped by an API key's role, never raised by it", () => {
    expect(currentRole(organization, admin.userId, 'viewer')).toBe('viewer');
    expect(currentRole(organization, admin.userId, 'owner')).toBe('admin');
    expect(currentRole(organization, editor.userId, 'owner')).toBeNull();
  });
});
