/**
 * The property test's picture of the service: every object it created, every member's role. Written
 * from docs/identity.md in the test's own words, never from the production access code, so that a read
 * or a refusal the service gets wrong is not also got wrong here. Values are never changed in place:
 * the linearizer tries several orders of one batch from the same world.
 */

export type Role = 'viewer' | 'editor' | 'admin' | 'owner';
export type Visibility = 'private' | 'org' | 'public';
export type Kind = 'catalog' | 'collection' | 'item';
export type Permission = 'viewer' | 'editor';

export interface Principal {
  readonly type: 'user' | 'organization';
  readonly id: string;
}

export interface Share {
  readonly principal: Principal;
  readonly permission: Permission;
}

export interface WorldObject {
  readonly id: string;
  readonly kind: Kind;
  readonly orgId: string;
  readonly createdBy: string;
  readonly parentId: string | null;
  /** Its own visibility, as given on create or changed since. */
  readonly visibility: Visibility;
  readonly shares: readonly Share[];
  /** Deleted itself; what is below a deleted object is gone with it without a tombstone of its own. */
  readonly tombstone: boolean;
}

/** A signed-in user acting in one organization: the one their session made active. */
export interface Actor {
  readonly name: string;
  readonly userId: string;
  readonly orgId: string;
}

export interface World {
  readonly objects: ReadonlyMap<string, WorldObject>;
  /** Roles by organization, then by user: a user with no entry is not a member. */
  readonly roles: ReadonlyMap<string, ReadonlyMap<string, Role>>;
}

/** No tree in the test gets near it; a longer chain of parents means the picture itself is broken. */
const MAX_CHAIN = 64;

export function objectOf(world: World, id: string): WorldObject {
  const object = world.objects.get(id);
  if (!object) throw new Error(`the model has no object ${id}`);
  return object;
}

/** The object and its ancestors, from the root level down to it. */
export function pathOf(world: World, id: string): WorldObject[] {
  const path: WorldObject[] = [];
  for (let at: string | null = id; at !== null; at = objectOf(world, at).parentId) {
    path.unshift(objectOf(world, at));
    if (path.length > MAX_CHAIN) throw new Error(`the model's parents of ${id} loop`);
  }
  return path;
}

/** Deleted itself or with an ancestor. */
export function isGone(world: World, id: string): boolean {
  return pathOf(world, id).some((step) => step.tombstone);
}

export function isLive(world: World, id: string): boolean {
  return !isGone(world, id);
}

export function roleIn(world: World, orgId: string, userId: string): Role | null {
  return world.roles.get(orgId)?.get(userId) ?? null;
}

const roleOrder: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];

export function atLeast(role: Role | null, minimum: Role): boolean {
  return role !== null && roleOrder.indexOf(role) >= roleOrder.indexOf(minimum);
}

/** The actor's role in the organization, which counts only while it is the one they act in. */
export function actingRole(world: World, actor: Actor | null, orgId: string): Role | null {
  if (actor === null || actor.orgId !== orgId) return null;
  return roleIn(world, orgId, actor.userId);
}

const visibilityOrder: readonly Visibility[] = ['private', 'org', 'public'];

/** The narrowest visibility on the path: a public object in a private catalog is private. */
export function effectiveVisibility(path: readonly WorldObject[]): Visibility {
  let narrowest: Visibility = 'public';
  for (const step of path) {
    if (visibilityOrder.indexOf(step.visibility) < visibilityOrder.indexOf(narrowest)) {
      narrowest = step.visibility;
    }
  }
  return narrowest;
}

/**
 * The shares that apply to the last object of the path: those of every object on it, except that an
 * object private on its own keeps out the shares above it.
 */
export function sharesReaching(path: readonly WorldObject[]): Share[] {
  let from = 0;
  path.forEach((step, index) => {
    if (step.visibility === 'private') from = index;
  });
  return path.slice(from).flatMap((step) => step.shares);
}

/** Whether a share speaks to the actor: by name, or to the organization they act in as a member. */
function shareNames(world: World, share: Share, actor: Actor): boolean {
  if (share.principal.type === 'user') return share.principal.id === actor.userId;
  return share.principal.id === actor.orgId && roleIn(world, actor.orgId, actor.userId) !== null;
}

/** Whether an editor share speaks to the actor: by name, or to their organization where they are an editor. */
function editorShareNames(world: World, share: Share, actor: Actor): boolean {
  if (share.permission !== 'editor') return false;
  if (share.principal.type === 'user') return share.principal.id === actor.userId;
  return share.principal.id === actor.orgId && atLeast(roleIn(world, actor.orgId, actor.userId), 'editor');
}

/** docs/identity.md, "Roles" and "Objects": who may read the object (`null`: anonymous). */
export function canRead(world: World, actor: Actor | null, id: string): boolean {
  const path = pathOf(world, id);
  const object = objectOf(world, id);
  const visibility = effectiveVisibility(path);
  if (visibility === 'public') return true;
  if (actor === null) return false;
  const role = actingRole(world, actor, object.orgId);
  if (atLeast(role, 'admin')) return true;
  if (role !== null && (visibility !== 'private' || object.createdBy === actor.userId)) return true;
  return sharesReaching(path).some((share) => shareNames(world, share, actor));
}

/** Who may update, move, delete it. */
export function canEdit(world: World, actor: Actor | null, id: string): boolean {
  if (actor === null || !canRead(world, actor, id)) return false;
  const path = pathOf(world, id);
  const object = objectOf(world, id);
  const role = actingRole(world, actor, object.orgId);
  if (atLeast(role, 'admin')) return true;
  const own = object.createdBy === actor.userId;
  if (atLeast(role, 'editor') && (effectiveVisibility(path) !== 'private' || own)) return true;
  return sharesReaching(path).some((share) => editorShareNames(world, share, actor));
}

/** Who may change its visibility and its shares: the organization's admins, and its creator as an editor. */
export function canManage(world: World, actor: Actor | null, id: string): boolean {
  if (actor === null || !canRead(world, actor, id)) return false;
  const object = objectOf(world, id);
  const role = actingRole(world, actor, object.orgId);
  return atLeast(role, 'admin') || (atLeast(role, 'editor') && object.createdBy === actor.userId);
}

/** Which kinds may hold which: catalogs hold anything, collections hold items, items nothing. */
export function mayHold(parent: Kind, child: Kind): boolean {
  if (parent === 'catalog') return true;
  return parent === 'collection' && child === 'item';
}

export function children(world: World, id: string | null): WorldObject[] {
  return [...world.objects.values()].filter((object) => object.parentId === id);
}

/** Everything below the object that is not deleted itself or with something between. */
export function liveDescendants(world: World, id: string): WorldObject[] {
  return children(world, id)
    .filter((child) => !child.tombstone)
    .flatMap((child) => [child, ...liveDescendants(world, child.id)]);
}

/** Levels of live objects below the object: 0 for a leaf. */
export function liveHeight(world: World, id: string): number {
  const below = children(world, id).filter((child) => !child.tombstone);
  return below.reduce((highest, child) => Math.max(highest, 1 + liveHeight(world, child.id)), 0);
}

export function withObject(world: World, object: WorldObject): World {
  const objects = new Map(world.objects);
  objects.set(object.id, object);
  return { ...world, objects };
}

export function withRole(world: World, orgId: string, userId: string, role: Role | null): World {
  const members = new Map(world.roles.get(orgId));
  if (role === null) members.delete(userId);
  else members.set(userId, role);
  const roles = new Map(world.roles);
  roles.set(orgId, members);
  return { ...world, roles };
}
