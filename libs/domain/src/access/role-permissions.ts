import type { Role } from './roles.js';

/**
 * What each role may do in its organization, as `organization/has-permission` answers it: the table of
 * docs/identity.md ("Roles") as resources and actions. It speaks of the organization's objects in
 * general; what a user may do to one object also depends on its visibility, its creator and its shares,
 * which `requireObjectAccess` decides per object ("own" rights are not listed here).
 *
 * | resource | action          | viewer | editor | admin | owner |
 * | -------- | --------------- | ------ | ------ | ----- | ----- |
 * | object   | read            | ✓      | ✓      | ✓     | ✓     |
 * | object   | read-private    |        |        | ✓     | ✓     |
 * | object   | create          |        | ✓      | ✓     | ✓     |
 * | object   | update          |        | ✓      | ✓     | ✓     |
 * | object   | delete          |        | ✓      | ✓     | ✓     |
 * | object   | upload          |        | ✓      | ✓     | ✓     |
 * | object   | share           |        |        | ✓     | ✓     |
 * | member   | list            | ✓      | ✓      | ✓     | ✓     |
 * | member   | invite          |        |        | ✓     | ✓     |
 * | member   | update-role     |        |        | ✓     | ✓     |
 * | member   | remove          |        |        | ✓     | ✓     |
 * | member   | manage-owners   |        |        |       | ✓     |
 * | apiKey   | create          |        |        | ✓     | ✓     |
 * | apiKey   | list            |        |        | ✓     | ✓     |
 * | apiKey   | revoke          |        |        | ✓     | ✓     |
 * | audit    | read            |        |        | ✓     | ✓     |
 */
export const permissionActions = {
  object: ['read', 'read-private', 'create', 'update', 'delete', 'upload', 'share'],
  member: ['list', 'invite', 'update-role', 'remove', 'manage-owners'],
  apiKey: ['create', 'list', 'revoke'],
  audit: ['read'],
} as const;

export type PermissionResource = keyof typeof permissionActions;
export type PermissionAction<R extends PermissionResource = PermissionResource> =
  (typeof permissionActions)[R][number];

/** What the client asks about: for each resource, the actions that must all be allowed. */
export type PermissionQuery = { readonly [R in PermissionResource]?: readonly PermissionAction<R>[] };

type Grants = { readonly [R in PermissionResource]: readonly PermissionAction<R>[] };

const viewer: Grants = { object: ['read'], member: ['list'], apiKey: [], audit: [] };
const editor: Grants = { ...viewer, object: ['read', 'create', 'update', 'delete', 'upload'] };
const admin: Grants = {
  object: ['read', 'read-private', 'create', 'update', 'delete', 'upload', 'share'],
  member: ['list', 'invite', 'update-role', 'remove'],
  apiKey: ['create', 'list', 'revoke'],
  audit: ['read'],
};
const owner: Grants = { ...admin, member: [...admin.member, 'manage-owners'] };

export const rolePermissions: Readonly<Record<Role, Grants>> = { viewer, editor, admin, owner };

/** Whether `role` holds every action asked for; no role (anonymous, not a member) holds none. */
export function roleHasPermissions(role: Role | null, query: PermissionQuery): boolean {
  const asked = Object.entries(query) as [PermissionResource, readonly string[] | undefined][];
  if (role === null) return asked.every(([, actions]) => (actions ?? []).length === 0);
  const granted = rolePermissions[role];
  return asked.every(([resource, actions]) =>
    (actions ?? []).every((action) => (granted[resource] as readonly string[]).includes(action)),
  );
}
