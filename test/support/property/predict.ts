import { unreachable, type Answer, type Command } from './commands.js';
import { widens } from './widening.js';
import {
  actingRole,
  atLeast,
  canEdit,
  canManage,
  canRead,
  children,
  isGone,
  liveDescendants,
  liveHeight,
  mayHold,
  objectOf,
  pathOf,
  withObject,
  withRole,
  type Actor,
  type Share,
  type World,
  type WorldObject,
} from './world.js';

/**
 * What a command must answer in a given world, and the world after it: the rules of docs/identity.md
 * and the README's tree rules, in the order the answers reveal them (a caller who may not read an
 * object hears "not found" before any rule about it).
 */
export type Expected =
  | { readonly kind: 'success'; readonly status: number }
  | { readonly kind: 'refused'; readonly status: number; readonly code: string };

export interface Prediction {
  readonly expected: Expected;
  /** The world after the command, given its answer (a create's id comes from it). */
  readonly apply: (answer: Answer) => World;
}

const MAX_DEPTH = 32;

const refused = (world: World, status: number, code: string): Prediction => ({
  expected: { kind: 'refused', status, code },
  apply: () => world,
});

const success = (status: number, apply: (answer: Answer) => World): Prediction => ({
  expected: { kind: 'success', status },
  apply,
});

/** A `202` is the success answered before the read models caught up. */
export function answerMatches(expected: Expected, answer: Answer): boolean {
  if (expected.kind === 'success') return answer.status === expected.status || answer.status === 202;
  return answer.status === expected.status && answer.code === expected.code;
}

export function describeExpected(expected: Expected): string {
  return expected.kind === 'success' ? `${expected.status}` : `${expected.status} ${expected.code}`;
}

const depthOf = (world: World, id: string) => pathOf(world, id).length;

function create(world: World, command: Extract<Command, { type: 'create' }>): Prediction {
  const { actor, kind, parentId } = command;
  const made = (orgId: string) => (answer: Answer) => {
    if (answer.createdId === null) throw new Error('a create answered success without an id');
    return withObject(world, {
      id: answer.createdId,
      kind,
      orgId,
      createdBy: actor.userId,
      parentId,
      visibility: command.visibility ?? 'org',
      shares: [],
      tombstone: false,
    });
  };
  if (parentId === null) {
    if (kind === 'item') return refused(world, 400, 'VALIDATION_FAILED');
    if (!atLeast(actingRole(world, actor, actor.orgId), 'editor')) return refused(world, 403, 'FORBIDDEN');
    return success(201, made(actor.orgId));
  }
  const parent = objectOf(world, parentId);
  if (!canRead(world, actor, parentId) || isGone(world, parentId)) {
    return refused(world, 409, 'PARENT_NOT_FOUND');
  }
  if (!canEdit(world, actor, parentId)) return refused(world, 403, 'FORBIDDEN');
  if (!mayHold(parent.kind, kind)) return refused(world, 409, 'INVALID_PARENT_KIND');
  if (depthOf(world, parentId) + 1 > MAX_DEPTH) return refused(world, 409, 'DEPTH_EXCEEDED');
  return success(201, made(parent.orgId));
}

/** An admin of the organization, or the creator of the object and of everything live below it. */
function mayWiden(world: World, actor: Actor, object: WorldObject): boolean {
  if (atLeast(actingRole(world, actor, object.orgId), 'admin')) return true;
  const own = (each: WorldObject) => each.createdBy === actor.userId;
  return own(object) && liveDescendants(world, object.id).every(own);
}

function move(world: World, command: Extract<Command, { type: 'move' }>): Prediction {
  const { actor, id, parentId } = command;
  const object = objectOf(world, id);
  if (!canRead(world, actor, id) || isGone(world, id)) return refused(world, 404, 'NOT_FOUND');
  if (!canEdit(world, actor, id)) return refused(world, 403, 'FORBIDDEN');
  if (parentId === object.parentId) return success(200, () => world);
  if (parentId !== null) {
    if (!canRead(world, actor, parentId)) return refused(world, 409, 'PARENT_NOT_FOUND');
    if (!isGone(world, parentId) && !canEdit(world, actor, parentId)) return refused(world, 403, 'FORBIDDEN');
  } else if (!atLeast(actingRole(world, actor, actor.orgId), 'editor') || actor.orgId !== object.orgId) {
    return refused(world, 403, 'FORBIDDEN');
  }
  // docs/identity.md, "The rights table": a widening of access before the tree's rules.
  const after = [...(parentId === null ? [] : pathOf(world, parentId)), object];
  if (widens(pathOf(world, id), after) && !mayWiden(world, actor, object)) {
    return refused(world, 403, 'FORBIDDEN');
  }
  const height = liveHeight(world, id);
  if (parentId === null) {
    if (object.kind === 'item') return refused(world, 409, 'INVALID_PARENT_KIND');
    if (1 + height > MAX_DEPTH) return refused(world, 409, 'DEPTH_EXCEEDED');
  } else {
    const parent = objectOf(world, parentId);
    if (isGone(world, parentId)) return refused(world, 409, 'PARENT_NOT_FOUND');
    if (pathOf(world, parentId).some((step) => step.id === id)) return refused(world, 409, 'CYCLE');
    if (!mayHold(parent.kind, object.kind)) return refused(world, 409, 'INVALID_PARENT_KIND');
    if (depthOf(world, parentId) + 1 + height > MAX_DEPTH) return refused(world, 409, 'DEPTH_EXCEEDED');
    if (parent.orgId !== object.orgId) return refused(world, 409, 'ORGANIZATION_MISMATCH');
  }
  return success(200, () => withObject(world, { ...object, parentId }));
}

function remove(world: World, command: Extract<Command, { type: 'delete' }>): Prediction {
  const { actor, id, recursive } = command;
  const object = objectOf(world, id);
  if (!canRead(world, actor, id)) return refused(world, 404, 'NOT_FOUND');
  if (isGone(world, id)) return refused(world, 404, 'NOT_FOUND');
  if (!canEdit(world, actor, id)) return refused(world, 403, 'FORBIDDEN');
  const hasChildren = children(world, id).some((child) => !child.tombstone);
  // What is below goes with it (or, without `recursive`, would have to): the caller must be able to change all of it.
  const mayTakeAll =
    atLeast(actingRole(world, actor, object.orgId), 'admin') ||
    liveDescendants(world, id).every((below) => canEdit(world, actor, below.id));
  if (hasChildren && !mayTakeAll) return refused(world, 403, 'FORBIDDEN');
  if (hasChildren && !recursive) return refused(world, 409, 'NOT_EMPTY');
  return success(200, () => withObject(world, { ...object, tombstone: true }));
}

/** Visibility and shares: read, live, then the right to manage. */
function manageable(world: World, actor: Actor, id: string): Prediction | null {
  if (!canRead(world, actor, id) || isGone(world, id)) return refused(world, 404, 'NOT_FOUND');
  if (!canManage(world, actor, id)) return refused(world, 403, 'FORBIDDEN');
  return null;
}

const samePrincipal = (share: Share, principal: Share['principal']) =>
  share.principal.type === principal.type && share.principal.id === principal.id;

function access(world: World, command: Extract<Command, { type: 'visibility' | 'share' | 'unshare' }>) {
  const { actor, id } = command;
  const object = objectOf(world, id);
  const refusal = manageable(world, actor, id);
  if (refusal) return refusal;
  switch (command.type) {
    case 'visibility':
      return success(200, () => withObject(world, { ...object, visibility: command.visibility }));
    case 'share': {
      const { principal, permission } = command;
      if (principal.type === 'user' && principal.id === actor.userId) {
        return refused(world, 400, 'INVALID_COMMAND');
      }
      const others = object.shares.filter((share) => !samePrincipal(share, principal));
      const status = others.length === object.shares.length ? 201 : 200;
      return success(status, () =>
        withObject(world, { ...object, shares: [...others, { principal, permission }] }),
      );
    }
    case 'unshare': {
      const others = object.shares.filter((share) => !samePrincipal(share, command.principal));
      if (others.length === object.shares.length) return refused(world, 404, 'NOT_FOUND');
      return success(204, () => withObject(world, { ...object, shares: others }));
    }
    default:
      return unreachable(command);
  }
}

export function predict(world: World, command: Command): Prediction {
  switch (command.type) {
    case 'create':
      return create(world, command);
    case 'move':
      return move(world, command);
    case 'delete':
      return remove(world, command);
    case 'visibility':
    case 'share':
    case 'unshare':
      return access(world, command);
    case 'set-role':
    case 'rejoin':
      return success(200, () => withRole(world, command.actor.orgId, command.member.userId, command.role));
    case 'remove-member':
      return success(200, () => withRole(world, command.actor.orgId, command.member.userId, null));
    default:
      return unreachable(command);
  }
}
