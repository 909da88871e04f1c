/**
 * The words of the rights table in docs/identity.md ("The rights table"), as data: who the callers are,
 * what each situation, operation, move and delete means. The e2e test builds exactly this over HTTP;
 * the model (model.ts) computes what each cell must say from it. A row, column or heading of the table
 * that is not named here fails both tests.
 */

export type Role = 'viewer' | 'editor' | 'admin' | 'owner';
export type Visibility = 'private' | 'org' | 'public';
export type SharePermission = 'viewer' | 'editor';

/**
 * The organizations that matter: `A` is the one under test (the owner's personal organization); `B`
 * and `C` are organizations objects are shared with; every other person acts in their own personal
 * organization, `own:<person>`.
 */
export type OrgKey = 'A' | 'B' | 'C' | `own:${PersonKey}`;

export const personKeys = [
  'owner',
  'admin',
  'editor',
  'viewer',
  'creator',
  'demotedCreator',
  'removedCreator',
  'elsewhere',
  'outsider',
  'viewerShare',
  'editorShare',
  'viewerWithShare',
  'orgBOwner',
  'orgBEditor',
  'orgBViewer',
  'orgCOwner',
  'orgCEditor',
  'bystander',
] as const;
export type PersonKey = (typeof personKeys)[number];

export interface Person {
  /** Their role in A at the end of the setup, if any; they own their personal organization. */
  readonly roleInA?: Role;
  /** Their role in A while the setup creates objects, when it changes afterwards (`null`: removed). */
  readonly roleInAWhileCreating?: Role;
  /** Their role in B or C (whose owners are `orgBOwner` and `orgCOwner`: B and C are their personal ones). */
  readonly otherOrg?: { readonly org: 'B' | 'C'; readonly role: Role };
  /** The organization they act in. */
  readonly active: 'A' | 'B' | 'C' | 'own';
}

export const people: Readonly<Record<PersonKey, Person>> = {
  owner: { roleInA: 'owner', active: 'A' },
  admin: { roleInA: 'admin', active: 'A' },
  editor: { roleInA: 'editor', active: 'A' },
  viewer: { roleInA: 'viewer', active: 'A' },
  creator: { roleInA: 'editor', active: 'A' },
  demotedCreator: { roleInA: 'viewer', roleInAWhileCreating: 'editor', active: 'A' },
  removedCreator: { roleInAWhileCreating: 'editor', active: 'A' },
  elsewhere: { roleInA: 'editor', active: 'own' },
  outsider: { active: 'own' },
  viewerShare: { active: 'own' },
  editorShare: { active: 'own' },
  viewerWithShare: { roleInA: 'viewer', active: 'A' },
  orgBOwner: { otherOrg: { org: 'B', role: 'owner' }, active: 'B' },
  orgBEditor: { otherOrg: { org: 'B', role: 'editor' }, active: 'B' },
  orgBViewer: { otherOrg: { org: 'B', role: 'viewer' }, active: 'B' },
  orgCOwner: { otherOrg: { org: 'C', role: 'owner' }, active: 'C' },
  orgCEditor: { otherOrg: { org: 'C', role: 'editor' }, active: 'C' },
  bystander: { active: 'own' },
};

/** Who calls: nobody, or a person with their session, or through an API key of a lower role. */
export type CallerSpec =
  { readonly anonymous: true } | { readonly person: PersonKey; readonly keyRole?: Role };

export type ShareTarget = { readonly person: PersonKey } | { readonly org: 'B' | 'C' | 'A' };
export interface ShareSpec {
  readonly to: ShareTarget;
  readonly permission: SharePermission;
}

/** The shares an object "shared" in the table carries; the share rows of the table are their recipients. */
export const tableShares: readonly ShareSpec[] = [
  { to: { person: 'viewerShare' }, permission: 'viewer' },
  { to: { person: 'editorShare' }, permission: 'editor' },
  { to: { person: 'viewerWithShare' }, permission: 'editor' },
  { to: { org: 'B' }, permission: 'editor' },
  { to: { org: 'C' }, permission: 'viewer' },
];

/** The persons who create the objects of "Rights on one object": each row acts on one of theirs. */
export type CreatorKey = 'creator' | 'demotedCreator' | 'removedCreator';

export interface Relation {
  readonly caller: CallerSpec;
  /** Whose object the row acts on (the creator rows on their own, every other row on `creator`'s). */
  readonly objectsOf: CreatorKey;
}

const by = (person: PersonKey, objectsOf: CreatorKey = 'creator'): Relation => ({
  caller: { person },
  objectsOf,
});

/** The rows of "Rights on one object", by their label in the table. */
export const relations: Readonly<Record<string, Relation>> = {
  anonymous: { caller: { anonymous: true }, objectsOf: 'creator' },
  'user of another organization': by('outsider'),
  'member acting in another organization': by('elsewhere'),
  viewer: by('viewer'),
  editor: by('editor'),
  admin: by('admin'),
  owner: by('owner'),
  creator: by('creator'),
  'creator, since demoted to viewer': by('demotedCreator', 'demotedCreator'),
  'creator, since removed': by('removedCreator', 'removedCreator'),
  'user with a viewer share': by('viewerShare'),
  'user with an editor share': by('editorShare'),
  'viewer with an editor share': by('viewerWithShare'),
  'admin through a viewer API key': { caller: { person: 'admin', keyRole: 'viewer' }, objectsOf: 'creator' },
  'editor of an organization with a viewer share': by('orgCEditor'),
  'viewer of an organization with an editor share': by('orgBViewer'),
  'editor of an organization with an editor share': by('orgBEditor'),
};

/**
 * Where the object of "Rights on one object" stands: in a catalog `P` of its creator, with a twin `P2`
 * (same visibility, same shares) to move it to. "Shared" means it carries `tableShares`.
 */
export interface Situation {
  readonly parent: { readonly visibility: Visibility; readonly shared: boolean };
  readonly object: { readonly visibility: Visibility; readonly shared: boolean };
}

const situation = (
  parent: Visibility,
  parentShared: boolean,
  object: Visibility,
  objectShared: boolean,
): Situation => ({
  parent: { visibility: parent, shared: parentShared },
  object: { visibility: object, shared: objectShared },
});

/** The tables of "Rights on one object", by the code at the start of their heading. */
export const situations: Readonly<Record<string, Situation>> = {
  private: situation('public', false, 'private', true),
  org: situation('public', false, 'org', true),
  public: situation('public', false, 'public', true),
  'public-in-org': situation('org', false, 'public', true),
  'org-in-shared': situation('org', true, 'org', false),
  'private-in-shared': situation('org', true, 'private', false),
  'public-in-private': situation('private', false, 'public', true),
  'org-in-shared-private': situation('private', true, 'org', false),
  'private-in-shared-private': situation('private', true, 'private', false),
};

export const operations = [
  'read',
  'listed',
  'item list',
  'path',
  'breadcrumbs',
  'search',
  'history',
  'as of',
  'feed',
  'patch',
  'list shares',
  'share',
  'visibility',
  'create child',
  'move',
  'move to root',
  'delete',
] as const;
export type Operation = (typeof operations)[number];

/** One object of a move or delete scenario, created by `creator` (at the root of their organization). */
export interface NodeSpec {
  readonly name: string;
  readonly parent?: string;
  readonly creator: PersonKey;
  readonly visibility: Visibility;
  readonly shares?: readonly ShareSpec[];
  /** Created at the root by its creator, then moved under `parent` by this person (an admin). */
  readonly placedBy?: PersonKey;
}

export interface MoveScenario {
  readonly nodes: readonly NodeSpec[];
  readonly moved: string;
  /** The new parent; `null`: the root level of its organization. */
  readonly to: string | null;
}

export interface DeleteScenario {
  readonly nodes: readonly NodeSpec[];
  readonly deleted: string;
}

/** The columns of the move and delete tables, by label. */
export const structureCallers: Readonly<Record<string, CallerSpec>> = {
  anonymous: { anonymous: true },
  'user of another organization': { person: 'outsider' },
  viewer: { person: 'viewer' },
  editor: { person: 'editor' },
  creator: { person: 'creator' },
  admin: { person: 'admin' },
  owner: { person: 'owner' },
  'user with an editor share': { person: 'editorShare' },
};

const org = (name: string, fields: Partial<NodeSpec> = {}): NodeSpec => ({
  name,
  creator: 'creator',
  visibility: 'org',
  ...fields,
});
const editorShareOf = (permission: SharePermission = 'editor'): ShareSpec[] => [
  { to: { person: 'editorShare' }, permission },
];

/** The rows of "Moves", by the code at the start of their first cell. X is what moves. */
export const moveScenarios: Readonly<Record<string, MoveScenario>> = {
  'org-to-org': { nodes: [org('P1'), org('P2'), org('X', { parent: 'P1' })], moved: 'X', to: 'P2' },
  'to-shared': {
    nodes: [org('P1'), org('P2', { shares: editorShareOf() }), org('X', { parent: 'P1' })],
    moved: 'X',
    to: 'P2',
  },
  'to-shared-with-others-below': {
    nodes: [
      org('P1'),
      org('P2', { shares: editorShareOf() }),
      org('X', { parent: 'P1' }),
      org('Y', { parent: 'X', creator: 'editor' }),
    ],
    moved: 'X',
    to: 'P2',
  },
  'to-more-share': {
    nodes: [
      org('P1', { shares: editorShareOf('viewer') }),
      org('P2', { shares: editorShareOf('editor') }),
      org('X', { parent: 'P1' }),
    ],
    moved: 'X',
    to: 'P2',
  },
  'within-shared': {
    nodes: [
      org('R', { shares: editorShareOf() }),
      org('P1', { parent: 'R' }),
      org('P2', { parent: 'R' }),
      org('X', { parent: 'P1' }),
    ],
    moved: 'X',
    to: 'P2',
  },
  'out-of-shared': {
    nodes: [org('P1', { shares: editorShareOf() }), org('P2'), org('X', { parent: 'P1' })],
    moved: 'X',
    to: 'P2',
  },
  'shared-to-root': {
    nodes: [org('P1', { shares: editorShareOf() }), org('X', { parent: 'P1' })],
    moved: 'X',
    to: null,
  },
  'to-root': { nodes: [org('P1'), org('X', { parent: 'P1' })], moved: 'X', to: null },
  'private-of-creator': {
    nodes: [org('P1'), org('P2'), org('X', { parent: 'P1', visibility: 'private' })],
    moved: 'X',
    to: 'P2',
  },
  'public-out-of-org': {
    nodes: [org('P1'), org('P2', { visibility: 'public' }), org('X', { parent: 'P1', visibility: 'public' })],
    moved: 'X',
    to: 'P2',
  },
  'org-into-public': {
    nodes: [org('P1'), org('P2', { visibility: 'public' }), org('X', { parent: 'P1' })],
    moved: 'X',
    to: 'P2',
  },
  'out-of-owners-private': {
    nodes: [
      org('P1', { creator: 'owner', visibility: 'private' }),
      org('P2'),
      org('X', { parent: 'P1', placedBy: 'owner' }),
    ],
    moved: 'X',
    to: 'P2',
  },
  'into-owners-private': {
    nodes: [org('P1'), org('P2', { creator: 'owner', visibility: 'private' }), org('X', { parent: 'P1' })],
    moved: 'X',
    to: 'P2',
  },
  'into-own-private': {
    nodes: [org('P1'), org('P2', { visibility: 'private' }), org('X', { parent: 'P1' })],
    moved: 'X',
    to: 'P2',
  },
  'under-itself': {
    nodes: [org('P1'), org('X', { parent: 'P1' }), org('Y', { parent: 'X' })],
    moved: 'X',
    to: 'Y',
  },
  'to-another-organization': {
    nodes: [
      org('P1'),
      org('X', { parent: 'P1' }),
      org('T', { creator: 'outsider', shares: [{ to: { org: 'A' }, permission: 'editor' }] }),
    ],
    moved: 'X',
    to: 'T',
  },
};

/** The rows of both delete tables, by the code at the start of their first cell. T is what is deleted. */
export const deleteScenarios: Readonly<Record<string, DeleteScenario>> = {
  empty: { nodes: [org('T')], deleted: 'T' },
  'org-children': {
    nodes: [org('T'), org('U', { parent: 'T' }), org('V', { parent: 'U' })],
    deleted: 'T',
  },
  'child-of-another-editor': {
    nodes: [org('T'), org('U', { parent: 'T', creator: 'editor' })],
    deleted: 'T',
  },
  'own-private-child': {
    nodes: [org('T'), org('U', { parent: 'T', visibility: 'private' })],
    deleted: 'T',
  },
  'hidden-private-child': {
    nodes: [org('T'), org('H', { parent: 'T', creator: 'owner', visibility: 'private' })],
    deleted: 'T',
  },
  'deep-hidden': {
    nodes: [
      org('T'),
      org('U', { parent: 'T' }),
      org('H', { parent: 'U', creator: 'owner', visibility: 'private' }),
    ],
    deleted: 'T',
  },
  private: {
    nodes: [org('T', { visibility: 'private' }), org('U', { parent: 'T' })],
    deleted: 'T',
  },
  shared: {
    nodes: [org('T', { shares: editorShareOf() }), org('U', { parent: 'T' })],
    deleted: 'T',
  },
  'shared-as-viewer': {
    nodes: [org('T', { shares: editorShareOf('viewer') }), org('U', { parent: 'T' })],
    deleted: 'T',
  },
  'shared-with-private-child': {
    nodes: [
      org('T', { shares: editorShareOf() }),
      org('H', { parent: 'T', creator: 'owner', visibility: 'private' }),
    ],
    deleted: 'T',
  },
  'shared-with-private-child-shared-too': {
    nodes: [
      org('T', { shares: editorShareOf() }),
      org('H', { parent: 'T', creator: 'owner', visibility: 'private', shares: editorShareOf() }),
    ],
    deleted: 'T',
  },
};
