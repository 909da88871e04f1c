/** Roles of a member within an organization, weakest first. */
export const roles = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof roles)[number];

/** Who may see an object, narrowest first. */
export const visibilities = ['private', 'org', 'public'] as const;
export type Visibility = (typeof visibilities)[number];

/** What a share gives on an object and everything below it. */
export const sharePermissions = ['viewer', 'editor'] as const;
export type SharePermission = (typeof sharePermissions)[number];

export function roleRank(role: Role): number {
  return roles.indexOf(role);
}

export function atLeast(role: Role | null, minimum: Role): boolean {
  return role !== null && roleRank(role) >= roleRank(minimum);
}

/** The weaker of two roles: an API key never acts above its creator. */
export function weakerRole(a: Role, b: Role): Role {
  return roleRank(a) <= roleRank(b) ? a : b;
}

/** The narrower of two visibilities: an object is never more visible than its parent. */
export function narrowerVisibility(a: Visibility, b: Visibility): Visibility {
  return visibilities.indexOf(a) <= visibilities.indexOf(b) ? a : b;
}
