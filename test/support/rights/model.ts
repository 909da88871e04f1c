import {
  people,
  type CallerSpec,
  type OrgKey,
  type PersonKey,
  type Role,
  type ShareSpec,
  type Visibility,
} from './vocabulary.js';

/**
 * A small model of docs/identity.md's rights, written from its words and on purpose sharing no code
 * with the service: who belongs to which audience, which audiences an object grants reading, changing
 * and managing to, and what each request answers. The table in the doc must equal what this model
 * computes (rights-table.unit.test.ts), and the service must answer the table (rights-table.e2e).
 */

/** What a cell of the table says: allowed, not shown (lists and the feed), or the refusal's status. */
export type Cell = '✓' | '–' | '401' | '403' | '404' | '409';

export interface ModelObject {
  readonly name: string;
  readonly org: OrgKey;
  readonly creator: PersonKey;
  readonly visibility: Visibility;
  readonly shares: readonly ShareSpec[];
  readonly parent: string | null;
}

/** A caller as a request carries it: who, in which organization, with which role there (if any). */
export interface Acting {
  readonly person: PersonKey | null;
  readonly org: OrgKey | null;
  readonly role: Role | null;
}

const roleOrder: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];
const atLeast = (role: Role | null, minimum: Role): boolean =>
  role !== null && roleOrder.indexOf(role) >= roleOrder.indexOf(minimum);
const weaker = (a: Role, b: Role): Role => (roleOrder.indexOf(a) <= roleOrder.indexOf(b) ? a : b);

/** The organization a person acts in, and their role there now (an API key caps it). */
export function actingOf(caller: CallerSpec): Acting {
  if ('anonymous' in caller) return { person: null, org: null, role: null };
  const person = people[caller.person];
  let org: OrgKey;
  let role: Role | null;
  if (person.active === 'A') {
    org = 'A';
    role = person.roleInA ?? null;
  } else if (person.active === 'own') {
    org = `own:${caller.person}`;
    role = 'owner';
  } else {
    org = person.active;
    role = person.otherOrg?.org === person.active ? person.otherOrg.role : null;
  }
  if (role !== null && caller.keyRole !== undefined) role = weaker(role, caller.keyRole);
  return { person: caller.person, org, role };
}

/**
 * Audiences, the groups the doc speaks of: everyone; the members, the editors (and up), the admins (and
 * up) of an organization; the creator of an object while a member (or while an editor) of its
 * organization; one user.
 */
type Audience = string;
const everyone = 'everyone';
const membersOf = (org: OrgKey) => `members of ${org}`;
const editorsOf = (org: OrgKey) => `editors of ${org}`;
const adminsOf = (org: OrgKey) => `admins of ${org}`;
const creatorMember = (person: PersonKey, org: OrgKey) => `${person} while a member of ${org}`;
const creatorEditor = (person: PersonKey, org: OrgKey) => `${person} while an editor of ${org}`;
const user = (person: PersonKey) => `user ${person}`;

function belongs(acting: Acting, audience: Audience): boolean {
  if (audience === everyone) return true;
  const { person, org, role } = acting;
  if (person === null) return false;
  if (audience === user(person)) return true;
  if (org === null || role === null) return false;
  return (
    audience === membersOf(org) ||
    (audience === editorsOf(org) && atLeast(role, 'editor')) ||
    (audience === adminsOf(org) && atLeast(role, 'admin')) ||
    audience === creatorMember(person, org) ||
    (audience === creatorEditor(person, org) && atLeast(role, 'editor'))
  );
}

interface Rights {
  readonly read: ReadonlySet<Audience>;
  readonly edit: ReadonlySet<Audience>;
  readonly manage: ReadonlySet<Audience>;
}

const visibilityOrder: readonly Visibility[] = ['private', 'org', 'public'];

/** The objects of one world, and what the doc says they grant and answer. */
export class RightsModel {
  private readonly objects = new Map<string, ModelObject>();

  constructor(objects: readonly ModelObject[]) {
    for (const object of objects) this.objects.set(object.name, object);
  }

  object(name: string): ModelObject {
    const found = this.objects.get(name);
    if (!found) throw new Error(`the model has no object ${name}`);
    return found;
  }

  /** From the root level down to the object. */
  path(name: string): ModelObject[] {
    const path: ModelObject[] = [];
    for (let at: string | null = name; at !== null; at = this.object(at).parent)
      path.unshift(this.object(at));
    return path;
  }

  children(name: string): ModelObject[] {
    return [...this.objects.values()].filter((object) => object.parent === name);
  }

  descendants(name: string): ModelObject[] {
    return this.children(name).flatMap((child) => [child, ...this.descendants(child.name)]);
  }

  /**
   * The rights of an object standing at the end of `path`: the most restrictive visibility on the path
   * decides who of the organization may read and change it; shares given on the path reach it, except
   * those above an object private on its own; its creator keeps reading it while a member, and changing
   * and managing it while an editor; the admins of its organization may do everything.
   */
  rightsAlong(path: readonly ModelObject[]): Rights {
    const object = path.at(-1);
    if (!object) throw new Error('an empty path');
    const visibility = path
      .map((step) => step.visibility)
      .reduce((narrowest, next) =>
        visibilityOrder.indexOf(next) < visibilityOrder.indexOf(narrowest) ? next : narrowest,
      );
    const { org, creator } = object;
    const read = new Set([adminsOf(org), creatorMember(creator, org)]);
    const edit = new Set([adminsOf(org), creatorEditor(creator, org)]);
    const manage = new Set([adminsOf(org), creatorEditor(creator, org)]);
    if (visibility !== 'private') {
      read.add(membersOf(org));
      edit.add(editorsOf(org));
    }
    if (visibility === 'public') read.add(everyone);
    const lastPrivate = path.map((step) => step.visibility).lastIndexOf('private');
    for (const share of path.slice(Math.max(lastPrivate, 0)).flatMap((step) => step.shares)) {
      const { to } = share;
      read.add('person' in to ? user(to.person) : membersOf(to.org));
      if (share.permission === 'editor') edit.add('person' in to ? user(to.person) : editorsOf(to.org));
    }
    return { read, edit, manage };
  }

  rights(name: string): Rights {
    return this.rightsAlong(this.path(name));
  }

  canRead(acting: Acting, name: string): boolean {
    return [...this.rights(name).read].some((audience) => belongs(acting, audience));
  }

  canEdit(acting: Acting, name: string): boolean {
    return [...this.rights(name).edit].some((audience) => belongs(acting, audience));
  }

  canManage(acting: Acting, name: string): boolean {
    return [...this.rights(name).manage].some((audience) => belongs(acting, audience));
  }

  /** Reading it, its breadcrumbs, its history. */
  read(acting: Acting, name: string): Cell {
    return this.canRead(acting, name) ? '✓' : '404';
  }

  /** Among its parent's children in the browser: a parent one may not read shows no children. */
  listed(acting: Acting, name: string): Cell {
    const { parent } = this.object(name);
    const parentShown = parent === null || this.canRead(acting, parent);
    return parentShown && this.canRead(acting, name) ? '✓' : '–';
  }

  /** Found by its path of slugs: a path through an object one may not read would name it. */
  foundByPath(acting: Acting, name: string): Cell {
    return this.path(name).every((step) => this.canRead(acting, step.name)) ? '✓' : '404';
  }

  /** In a list of objects (filtered by parent or not) and in the change feed: whoever may read it. */
  shown(acting: Acting, name: string): Cell {
    return this.canRead(acting, name) ? '✓' : '–';
  }

  /**
   * A change to the object: one who may not read it is told it does not exist; an anonymous caller to
   * sign in; one who may read it but lacks the right is refused.
   */
  change(acting: Acting, name: string, right: 'edit' | 'manage'): Cell {
    if (!this.canRead(acting, name)) return '404';
    if (acting.person === null) return '401';
    const allowed = right === 'edit' ? this.canEdit(acting, name) : this.canManage(acting, name);
    return allowed ? '✓' : '403';
  }

  /** A create below `parent`: a parent one may not read is answered as a missing parent (409). */
  createBelow(acting: Acting, parent: string): Cell {
    if (acting.person === null) return '401';
    if (!this.canRead(acting, parent)) return '409';
    return this.canEdit(acting, parent) ? '✓' : '403';
  }

  isAdminOf(acting: Acting, org: OrgKey): boolean {
    return acting.org === org && atLeast(acting.role, 'admin');
  }

  /**
   * A move: edit rights on the object, then on the new parent (one that may not be read is a missing
   * parent) or the editor role in the object's organization for its root level. A new place that would
   * give any audience a right to read or change the object it did not have is for the admins, or for
   * the creator of the object and of everything below it. Then the tree: no cycle, no other organization.
   */
  move(acting: Acting, name: string, to: string | null): Cell {
    const refusal = this.change(acting, name, 'edit');
    if (refusal !== '✓') return refusal;
    const object = this.object(name);
    if (to === object.parent) return '✓';
    if (to !== null) {
      const target = this.createBelow(acting, to);
      if (target !== '✓') return target;
    } else if (!atLeast(acting.role, 'editor') || acting.org !== object.org) {
      return '403';
    }
    const widens = this.widens(name, to);
    const ownWork =
      acting.person === object.creator &&
      this.descendants(name).every((below) => below.creator === acting.person);
    if (widens && !this.isAdminOf(acting, object.org) && !ownWork) return '403';
    if (to !== null && (to === name || this.descendants(name).some((below) => below.name === to))) {
      return '409';
    }
    if (to !== null && this.object(to).org !== object.org) return '409';
    return '✓';
  }

  /** Whether the object, standing under `to`, would give some audience a right it does not give now. */
  widens(name: string, to: string | null): boolean {
    const now = this.rights(name);
    const then = this.rightsAlong([...(to === null ? [] : this.path(to)), this.object(name)]);
    const gains = (after: ReadonlySet<Audience>, before: ReadonlySet<Audience>) =>
      [...after].some((audience) => !before.has(audience));
    return gains(then.read, now.read) || gains(then.edit, now.edit);
  }

  /**
   * A delete: edit rights on the object; a container with something below takes the right to change
   * all of it (or the admin role), refused before telling it is not empty; without `recursive`, a
   * container that is not empty stays.
   */
  delete(acting: Acting, name: string, recursive: boolean): Cell {
    const refusal = this.change(acting, name, 'edit');
    if (refusal !== '✓') return refusal;
    const below = this.descendants(name);
    if (below.length === 0) return '✓';
    const mayChangeAll = below.every((object) => this.canEdit(acting, object.name));
    if (!mayChangeAll && !this.isAdminOf(acting, this.object(name).org)) return '403';
    return recursive ? '✓' : '409';
  }
}
