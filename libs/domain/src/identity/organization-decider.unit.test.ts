import { describe, expect, it } from 'vitest';
import type { Role } from '../access/roles.js';
import { DomainError, type DomainErrorCode } from '../errors.js';
import type { OrganizationEvent } from './events.js';
import type { OrganizationActor, OrganizationCommand } from './organization-commands.js';
import { decideOrganization } from './organization-decider.js';
import { foldOrganization } from './organization-state.js';

const newId = (): string => crypto.randomUUID();

const orgId = newId();
const owner = newId();
const coOwner = newId();
const admin = newId();
const editor = newId();

/** An organization with two owners (so an owner may be removed or demoted), an admin and an editor. */
const history: OrganizationEvent[] = [
  {
    type: 'OrganizationCreated',
    data: { orgId, name: 'Team', slug: 'team', personal: false, createdBy: owner },
  },
  { type: 'MemberAdded', data: { orgId, userId: owner, role: 'owner', invitationId: null } },
  ...(
    [
      [coOwner, 'owner'],
      [admin, 'admin'],
      [editor, 'editor'],
    ] as const
  ).map(([userId, role]): OrganizationEvent => ({
    type: 'MemberAdded',
    data: { orgId, userId, role, invitationId: newId() },
  })),
];

function actor(userId: string, roleCap: Role | null = null): OrganizationActor {
  return { userId, email: `${userId}@example.org`, roleCap };
}

function decide(command: OrganizationCommand): OrganizationEvent[] {
  return decideOrganization(command, foldOrganization(history));
}

function expectFailure(command: OrganizationCommand, code: DomainErrorCode): void {
  let thrown: unknown = null;
  try {
    decide(command);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DomainError);
  expect((thrown as DomainError).code).toBe(code);
}

const changeRole = (by: OrganizationActor, userId: string, role: Role): OrganizationCommand => ({
  type: 'ChangeMemberRole',
  data: { userId, role, actor: by },
});

const remove = (by: OrganizationActor, userId: string): OrganizationCommand => ({
  type: 'RemoveMember',
  data: { userId, actor: by },
});

const invite = (by: OrganizationActor, role: Role): OrganizationCommand => ({
  type: 'InviteMember',
  data: {
    invitationId: newId(),
    email: 'new@example.org',
    role,
    expiresAt: '2100-01-01T00:00:00.000Z',
    actor: by,
  },
});

const createKey = (by: OrganizationActor, role: Role): OrganizationCommand => ({
  type: 'CreateApiKey',
  data: { keyId: newId(), name: 'pipeline', role, prefix: 'pcs_abcd', expiresAt: null, actor: by },
});

describe('organization decider: the credential caps the role', () => {
  const ownersKeyAsAdmin = actor(owner, 'admin');

  it('lets an uncapped owner make, unmake and remove owners', () => {
    expect(decide(changeRole(actor(owner), editor, 'owner'))).toHaveLength(1);
    expect(decide(changeRole(actor(owner), coOwner, 'admin'))).toHaveLength(1);
    expect(decide(remove(actor(owner), coOwner))).toHaveLength(1);
    expect(decide(invite(actor(owner), 'owner'))).toHaveLength(1);
  });

  it('keeps an owner whose key is capped at admin from making, unmaking or removing owners', () => {
    expectFailure(changeRole(ownersKeyAsAdmin, editor, 'owner'), 'FORBIDDEN');
    expectFailure(changeRole(ownersKeyAsAdmin, coOwner, 'admin'), 'FORBIDDEN');
    expectFailure(remove(ownersKeyAsAdmin, coOwner), 'FORBIDDEN');
    expectFailure(invite(ownersKeyAsAdmin, 'owner'), 'FORBIDDEN');
  });

  it('still lets that key do what an admin does', () => {
    expect(decide(changeRole(ownersKeyAsAdmin, editor, 'viewer'))).toEqual([
      { type: 'MemberRoleChanged', data: { orgId, userId: editor, from: 'editor', to: 'viewer' } },
    ]);
    expect(decide(remove(ownersKeyAsAdmin, editor))).toHaveLength(1);
    expect(decide(invite(ownersKeyAsAdmin, 'admin'))).toHaveLength(1);
  });

  it('keeps a key from creating a key above its cap, even for an owner', () => {
    expectFailure(createKey(ownersKeyAsAdmin, 'owner'), 'FORBIDDEN');
    expectFailure(createKey(actor(owner, 'editor'), 'admin'), 'FORBIDDEN');
    expect(decide(createKey(ownersKeyAsAdmin, 'admin'))).toMatchObject([
      { type: 'ApiKeyCreated', data: { role: 'admin', createdBy: owner } },
    ]);
    expect(decide(createKey(actor(owner), 'owner'))).toHaveLength(1);
  });

  it('keeps a key capped below admin from managing members or keys at all', () => {
    const ownersKeyAsEditor = actor(owner, 'editor');
    expectFailure(changeRole(ownersKeyAsEditor, editor, 'viewer'), 'FORBIDDEN');
    expectFailure(remove(ownersKeyAsEditor, editor), 'FORBIDDEN');
    expectFailure(invite(ownersKeyAsEditor, 'viewer'), 'FORBIDDEN');
    expectFailure({ type: 'RevokeApiKey', data: { keyId: newId(), actor: ownersKeyAsEditor } }, 'FORBIDDEN');
  });

  it('never raises a role: a cap above the member role changes nothing', () => {
    expectFailure(changeRole(actor(admin, 'owner'), coOwner, 'admin'), 'FORBIDDEN');
    expectFailure(createKey(actor(admin, 'owner'), 'owner'), 'FORBIDDEN');
    expectFailure(invite(actor(editor, 'owner'), 'viewer'), 'FORBIDDEN');
  });

  it('answers a non-member NOT_FOUND whatever the cap', () => {
    expectFailure(changeRole(actor(newId(), 'owner'), editor, 'viewer'), 'NOT_FOUND');
  });
});

describe('organization decider: the operator appoints owners and re-enables webhooks', () => {
  const operator = { operator: 'ops@console' };
  const appoint = (userId: string): OrganizationCommand => ({
    type: 'AppointOwner',
    data: { userId, actor: operator },
  });

  it('promotes a member, adds anyone else as owner, and leaves an owner alone', () => {
    expect(decide(appoint(editor))).toStrictEqual([
      { type: 'MemberRoleChanged', data: { orgId, userId: editor, from: 'editor', to: 'owner' } },
    ]);
    const stranger = newId();
    expect(decide(appoint(stranger))).toStrictEqual([
      { type: 'MemberAdded', data: { orgId, userId: stranger, role: 'owner', invitationId: null } },
    ]);
    expect(decide(appoint(owner))).toStrictEqual([]);
  });

  it('answers NOT_FOUND for an organization that does not exist', () => {
    expect(() => decideOrganization(appoint(editor), foldOrganization([]))).toThrow(/organization not found/);
  });

  it('lets the operator enable a disabled endpoint, as an admin could, but not an editor', () => {
    const webhookId = newId();
    const withDisabledHook: OrganizationEvent[] = [
      ...history,
      {
        type: 'WebhookRegistered',
        data: {
          orgId,
          webhookId,
          host: 'hooks.example.org',
          eventTypes: ['*'],
          description: null,
          createdBy: admin,
        },
      },
      { type: 'WebhookDisabled', data: { orgId, webhookId, reason: 'too many failures' } },
    ];
    const state = foldOrganization(withDisabledHook);
    const enable = (by: OrganizationActor | typeof operator): OrganizationCommand => ({
      type: 'EnableWebhook',
      data: { webhookId, actor: by },
    });
    expect(decideOrganization(enable(operator), state)).toStrictEqual([
      { type: 'WebhookEnabled', data: { orgId, webhookId } },
    ]);
    expect(() => decideOrganization(enable(actor(editor)), state)).toThrow(/admin role/);
  });
});
