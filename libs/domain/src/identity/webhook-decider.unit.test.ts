import { describe, expect, it } from 'vitest';
import type { Role } from '../access/roles.js';
import { DomainError } from '../errors.js';
import type { OrganizationEvent } from './events.js';
import type { OrganizationActor, WebhookCommand } from './organization-commands.js';
import { decideOrganization } from './organization-decider.js';
import { foldOrganization } from './organization-state.js';

const newId = (): string => crypto.randomUUID();
const orgId = newId();
const owner = newId();
const admin = newId();
const editor = newId();
const webhookId = newId();

const founded: OrganizationEvent[] = [
  {
    type: 'OrganizationCreated',
    data: { orgId, name: 'Team', slug: 'team', personal: false, createdBy: owner },
  },
  { type: 'MemberAdded', data: { orgId, userId: owner, role: 'owner', invitationId: null } },
  { type: 'MemberAdded', data: { orgId, userId: admin, role: 'admin', invitationId: newId() } },
  { type: 'MemberAdded', data: { orgId, userId: editor, role: 'editor', invitationId: newId() } },
];
const registered: OrganizationEvent = {
  type: 'WebhookRegistered',
  data: {
    orgId,
    webhookId,
    host: 'hooks.example.org',
    eventTypes: ['*'],
    description: null,
    createdBy: admin,
  },
};

const actor = (userId: string, roleCap: Role | null = null): OrganizationActor => ({
  userId,
  email: `${userId}@example.org`,
  roleCap,
});

const decide = (command: WebhookCommand, history: OrganizationEvent[] = founded) =>
  decideOrganization(command, foldOrganization(history));

const register = (by: OrganizationActor): WebhookCommand => ({
  type: 'RegisterWebhook',
  data: { webhookId, host: 'hooks.example.org', eventTypes: ['*'], description: null, actor: by },
});

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a DomainError';
  }
}

describe('webhook decider', () => {
  it('lets admins and owners register, never with the secret or the URL in the event', () => {
    expect(decide(register(actor(admin)))).toEqual([registered]);
    expect(decide(register(actor(owner)))[0]?.type).toBe('WebhookRegistered');
  });

  it('refuses editors, keys capped below admin, and non-members', () => {
    expect(codeOf(() => decide(register(actor(editor))))).toBe('FORBIDDEN');
    expect(codeOf(() => decide(register(actor(owner, 'editor'))))).toBe('FORBIDDEN');
    expect(codeOf(() => decide(register(actor(newId()))))).toBe('NOT_FOUND');
  });

  it('removes once; an unknown endpoint is not found', () => {
    const remove: WebhookCommand = { type: 'RemoveWebhook', data: { webhookId, actor: actor(admin) } };
    expect(decide(remove, [...founded, registered])).toEqual([
      { type: 'WebhookRemoved', data: { orgId, webhookId } },
    ]);
    expect(
      decide(remove, [...founded, registered, { type: 'WebhookRemoved', data: { orgId, webhookId } }]),
    ).toEqual([]);
    expect(codeOf(() => decide(remove))).toBe('NOT_FOUND');
    expect(
      codeOf(() =>
        decide({ type: 'RemoveWebhook', data: { webhookId, actor: actor(editor) } }, [
          ...founded,
          registered,
        ]),
      ),
    ).toBe('FORBIDDEN');
  });

  it('disables (the system, with its reason) once, and enables a disabled endpoint again', () => {
    const disable: WebhookCommand = { type: 'DisableWebhook', data: { webhookId, reason: 'failing' } };
    const disabled: OrganizationEvent = {
      type: 'WebhookDisabled',
      data: { orgId, webhookId, reason: 'failing' },
    };
    expect(decide(disable, [...founded, registered])).toEqual([disabled]);
    expect(decide(disable, [...founded, registered, disabled])).toEqual([]);
    const enable: WebhookCommand = { type: 'EnableWebhook', data: { webhookId, actor: actor(admin) } };
    expect(decide(enable, [...founded, registered, disabled])).toEqual([
      { type: 'WebhookEnabled', data: { orgId, webhookId } },
    ]);
    expect(decide(enable, [...founded, registered])).toEqual([]);
  });

  it('rotates the secret of a live endpoint for admins, recording until when the previous one signs', () => {
    const until = '2025-06-02T12:00:00.000Z';
    const rotate = (by: OrganizationActor): WebhookCommand => ({
      type: 'RotateWebhookSecret',
      data: { webhookId, previousSecretExpiresAt: until, actor: by },
    });
    expect(decide(rotate(actor(admin)), [...founded, registered])).toEqual([
      { type: 'WebhookSecretRotated', data: { orgId, webhookId, previousSecretExpiresAt: until } },
    ]);
    expect(codeOf(() => decide(rotate(actor(editor)), [...founded, registered]))).toBe('FORBIDDEN');
    expect(codeOf(() => decide(rotate(actor(owner, 'editor')), [...founded, registered]))).toBe('FORBIDDEN');
    const removed: OrganizationEvent = { type: 'WebhookRemoved', data: { orgId, webhookId } };
    expect(codeOf(() => decide(rotate(actor(admin)), [...founded, registered, removed]))).toBe('NOT_FOUND');
    expect(codeOf(() => decide(rotate(actor(admin))))).toBe('NOT_FOUND');
  });
});
