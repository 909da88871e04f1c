import { randomUUID } from 'node:crypto';
import { settleCommandAt } from '../command-answer.js';
import { callAt, type JsonResponse } from '../http.js';
import { sessionCookieOf } from '../auth.js';
import type { Actor, Role, World } from './world.js';

/** A signed-in user of the property test: who they are in the model, and what their browser sends. */
export interface Person extends Actor {
  readonly email: string;
  readonly headers: Record<string, string>;
}

/**
 * The people of one run, new for every run: organization A (its owner, an admin, an editor, a viewer),
 * organization B (its owner, an editor, a viewer) and X, the personal organization of a user who is in
 * neither (another tenant). Every owner's organization is the one they signed up with.
 */
export interface Cast {
  readonly people: readonly Person[];
  /** The members whose role may change, who may be removed and invited back (every one but the owners). */
  readonly members: readonly Person[];
  readonly organizations: readonly string[];
  readonly ownerOf: (orgId: string) => Person;
  /** Their roles as the run begins. */
  readonly world: World;
  /** A person's name for a user id, `organization A` for an organization's id: for failure reports. */
  readonly nameOf: (id: string) => string;
}

interface SessionBody {
  readonly user: { readonly id: string };
  readonly session: { readonly activeOrganizationId: string };
  readonly csrfToken: string;
}

async function expectSuccess(baseUrl: string, answer: JsonResponse, success: number, what: string) {
  await settleCommandAt(baseUrl, answer, success, what);
}

async function signUp(baseUrl: string, name: string): Promise<Person> {
  const email = `property-${randomUUID()}@example.org`;
  const answer = await callAt<SessionBody>(baseUrl, 'POST', '/api/auth/sign-up/email', {
    body: { email, password: `pw-${randomUUID()}`, name },
  });
  await expectSuccess(baseUrl, answer, 201, `sign-up of ${name}`);
  const cookie = sessionCookieOf(answer);
  return {
    name,
    email,
    userId: answer.body.user.id,
    orgId: answer.body.session.activeOrganizationId,
    headers: { cookie, 'x-csrf-token': answer.body.csrfToken },
  };
}

/** Invites `member` into the owner's organization with `role`; they accept and act there. */
export async function joinAs(baseUrl: string, owner: Person, member: Person, role: Role): Promise<Person> {
  const invited = await callAt<{ id: string }>(baseUrl, 'POST', '/api/auth/organization/invite-member', {
    headers: owner.headers,
    body: { email: member.email, role },
  });
  await expectSuccess(baseUrl, invited, 201, `invitation of ${member.name}`);
  const accepted = await callAt(baseUrl, 'POST', '/api/auth/organization/accept-invitation', {
    headers: member.headers,
    body: { invitationId: invited.body.id },
  });
  await expectSuccess(baseUrl, accepted, 200, `${member.name} accepting`);
  const active = await callAt(baseUrl, 'POST', '/api/auth/organization/set-active', {
    headers: member.headers,
    body: { organizationId: owner.orgId },
  });
  if (active.status !== 200) throw new Error(`set-active of ${member.name}: ${active.status}`);
  return { ...member, orgId: owner.orgId };
}

const memberRoles: readonly (readonly [string, string, Role])[] = [
  ['A', 'A admin', 'admin'],
  ['A', 'A editor', 'editor'],
  ['A', 'A viewer', 'viewer'],
  ['B', 'B editor', 'editor'],
  ['B', 'B viewer', 'viewer'],
];

export async function castAt(baseUrl: string): Promise<Cast> {
  const [ownerA, ownerB, ownerX, ...newcomers] = await Promise.all(
    ['A owner', 'B owner', 'X owner', ...memberRoles.map(([, name]) => name)].map((name) =>
      signUp(baseUrl, name),
    ),
  );
  if (!ownerA || !ownerB || !ownerX) throw new Error('sign-ups missing');
  const owners = new Map([
    ['A', ownerA],
    ['B', ownerB],
  ]);
  const members = await Promise.all(
    memberRoles.map(([org, , role], index) => {
      const owner = owners.get(org);
      const newcomer = newcomers[index];
      if (!owner || !newcomer) throw new Error('cast incomplete');
      return joinAs(baseUrl, owner, newcomer, role);
    }),
  );
  const roles = new Map<string, Map<string, Role>>();
  for (const owner of [ownerA, ownerB, ownerX]) roles.set(owner.orgId, new Map([[owner.userId, 'owner']]));
  members.forEach((member, index) => {
    const role = memberRoles[index]?.[2];
    if (role) roles.get(member.orgId)?.set(member.userId, role);
  });
  const allOwners = [ownerA, ownerB, ownerX];
  return {
    people: [ownerA, ...members.slice(0, 3), ownerB, ...members.slice(3), ownerX],
    members,
    organizations: allOwners.map((owner) => owner.orgId),
    ownerOf: (orgId) => {
      const owner = allOwners.find((each) => each.orgId === orgId);
      if (!owner) throw new Error(`no owner of ${orgId}`);
      return owner;
    },
    world: { objects: new Map(), roles },
    nameOf: (id) => {
      const person = [ownerA, ownerB, ownerX, ...members].find((each) => each.userId === id);
      if (person) return person.name;
      const org = allOwners.find((owner) => owner.orgId === id);
      return org ? `organization ${org.name.slice(0, 1)}` : id.slice(0, 8);
    },
  };
}
