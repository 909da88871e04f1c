import type { Cast, Person } from './cast.js';
import { unreachable, type Command } from './commands.js';
import type { AbstractCommand, Step } from './steps.js';
import {
  actingRole,
  atLeast,
  canEdit,
  canManage,
  isLive,
  mayHold,
  objectOf,
  roleIn,
  type Principal,
  type World,
} from './world.js';

/**
 * Turns a generated step into commands on the run's objects as they are before the step. A `fitting`
 * command picks among live objects, a parent that may hold the object, and a person the model lets do
 * it, so that most commands get past the first refusal and build a tree worth checking; the others
 * pick from everything, deleted objects and unfit people included, to check the refusals.
 */

const at = <T>(list: readonly T[], index: number): T => {
  const value = list[index % list.length];
  if (value === undefined) throw new Error('picked from an empty list');
  return value;
};

function principals(cast: Cast): Principal[] {
  return [
    ...cast.people.map((person): Principal => ({ type: 'user', id: person.userId })),
    ...cast.organizations.map((id): Principal => ({ type: 'organization', id })),
  ];
}

function membershipCommand(cast: Cast, world: World, step: AbstractCommand): Command {
  const member = at(cast.members, step.whom);
  const actor = cast.ownerOf(member.orgId);
  if (roleIn(world, member.orgId, member.userId) === null) {
    return { type: 'rejoin', actor, member, role: step.role };
  }
  // A removal a third of the time, a role change otherwise.
  return step.drastic && step.role !== 'admin'
    ? { type: 'remove-member', actor, member }
    : { type: 'set-role', actor, member, role: step.role };
}

interface Choice {
  readonly cast: Cast;
  readonly world: World;
  readonly ids: readonly string[];
  readonly focus: number;
  readonly step: AbstractCommand;
  /** The two objects every command of a contending step acts on and places under. */
  readonly contested: readonly string[] | null;
}

/**
 * Someone the model lets do it, if the command is fitting. Every other time, someone who is not an
 * admin of `orgId` if there is such a one: the rules with exceptions for admins (moves that widen
 * access, deletes of what one cannot change) are the ones to exercise on everybody else.
 */
function actorFor({ cast, world, step }: Choice, may: (person: Person) => boolean, orgId?: string): Person {
  const fit = step.fitting ? cast.people.filter(may) : [];
  const humble =
    orgId === undefined ? [] : fit.filter((person) => !atLeast(actingRole(world, person, orgId), 'admin'));
  if (humble.length > 0 && step.actor % 2 === 0) return at(humble, step.actor >> 1);
  return at(fit.length > 0 ? fit : cast.people, step.actor);
}

const editorOf = (choice: Choice, id: string) =>
  actorFor(choice, (person) => canEdit(choice.world, person, id), objectOf(choice.world, id).orgId);

function create(choice: Choice): Command {
  const { world, ids, focus, step, contested } = choice;
  const parents =
    contested ??
    (step.fitting
      ? ids.filter((id) => isLive(world, id) && mayHold(objectOf(world, id).kind, step.kind))
      : ids);
  const parentId = step.place === 0 || parents.length === 0 ? null : at(parents, focus + step.place - 1);
  // An item at the root level is a 400 before anything else: worth trying, not every time.
  const kind = parentId === null && step.fitting && step.kind === 'item' ? 'catalog' : step.kind;
  const actor =
    parentId === null
      ? actorFor(choice, (person) => atLeast(actingRole(world, person, person.orgId), 'editor'))
      : editorOf(choice, parentId);
  return { type: 'create', actor, kind, parentId, visibility: step.visibility, title: step.title };
}

function move(choice: Choice, id: string): Command {
  const { world, ids, focus, step, contested } = choice;
  const object = objectOf(world, id);
  if (contested) {
    // Under the other one of the two (or at the root level now and then).
    const parentId = step.place === 0 ? null : (contested.find((other) => other !== id) ?? null);
    return { type: 'move', actor: editorOf(choice, id), id, parentId };
  }
  // Not under itself (a cycle now and then still comes from picking one of its descendants).
  const parents = step.fitting
    ? ids.filter((other) => {
        const parent = objectOf(world, other);
        const fits = parent.orgId === object.orgId && mayHold(parent.kind, object.kind);
        return other !== id && isLive(world, other) && fits;
      })
    : ids;
  const parentId = step.place === 0 || parents.length === 0 ? null : at(parents, focus + step.place - 1);
  return { type: 'move', actor: editorOf(choice, id), id, parentId };
}

function resolveOne(choice: Choice): Command {
  const { cast, world, ids, focus, step, contested } = choice;
  if (step.type === 'membership') return membershipCommand(cast, world, step);
  const live = ids.filter((id) => isLive(world, id));
  const shared = live.filter((id) => objectOf(world, id).shares.length > 0);
  const targets =
    contested ??
    (step.type === 'unshare' && step.fitting && shared.length > 0 ? shared : step.fitting ? live : ids);
  if (step.type === 'create' || targets.length === 0)
    return create({ ...choice, step: { ...step, type: 'create' } });
  const id = at(targets, focus + step.target);
  const editor = () => editorOf(choice, id);
  const manager = () => actorFor(choice, (person) => canManage(world, person, id), objectOf(world, id).orgId);
  switch (step.type) {
    case 'move':
      return move(choice, id);
    case 'delete':
      return { type: 'delete', actor: editor(), id, recursive: step.drastic };
    case 'visibility':
      return { type: 'visibility', actor: manager(), id, visibility: step.visibility ?? 'org' };
    case 'share': {
      const actor = manager();
      // Sharing with oneself is refused (400): tried only by unfit commands.
      const others = principals(cast).filter((principal) => !step.fitting || principal.id !== actor.userId);
      return { type: 'share', actor, id, principal: at(others, step.whom), permission: step.permission };
    }
    case 'unshare': {
      // Mostly a share that is there; a principal without one now and then (404).
      const { shares } = objectOf(world, id);
      const principal =
        shares.length > 0 && !step.drastic
          ? at(shares, step.whom).principal
          : at(principals(cast), step.whom);
      return { type: 'unshare', actor: manager(), id, principal };
    }
    default:
      return unreachable(step.type);
  }
}

/** Two live catalogs of one organization near the focus, if there are. */
function twoCatalogs(world: World, ids: readonly string[], focus: number): string[] | null {
  const catalogs = ids.filter((id) => isLive(world, id) && objectOf(world, id).kind === 'catalog');
  if (catalogs.length < 2) return null;
  const first = at(catalogs, focus);
  const { orgId } = objectOf(world, first);
  const others = catalogs.filter((id) => id !== first && objectOf(world, id).orgId === orgId);
  return others.length > 0 ? [first, at(others, focus)] : null;
}

/**
 * The concrete commands of a step. At most one membership change per step: two on one member at once
 * would have no single expected answer to compare with.
 */
export function resolveStep(cast: Cast, world: World, ids: readonly string[], step: Step): Command[] {
  const contested = step.contend && step.commands.length > 1 ? twoCatalogs(world, ids, step.focus) : null;
  const commands: Command[] = [];
  let membership = false;
  for (const abstract of step.commands) {
    if (abstract.type === 'membership') {
      if (membership) continue;
      membership = true;
    }
    commands.push(resolveOne({ cast, world, ids, focus: step.focus, step: abstract, contested }));
  }
  return commands;
}
