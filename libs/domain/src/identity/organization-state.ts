import type { Role } from '../access/roles.js';
import type { OrganizationEvent, WebhookEvent } from './events.js';

/**
 * `open` until accepted or cancelled. Expiry is not a state: it depends on the clock, so whoever
 * decides compares `expiresAt` with the time of the command.
 */
export type InvitationStatus = 'open' | 'accepted' | 'cancelled';

export interface Invitation {
  readonly email: string;
  readonly role: Role;
  readonly invitedBy: string;
  readonly expiresAt: string;
  readonly status: InvitationStatus;
}

export interface ApiKeyState {
  readonly role: Role;
  readonly createdBy: string;
  readonly revoked: boolean;
}

export interface WebhookState {
  readonly enabled: boolean;
  readonly removed: boolean;
}

export type OrganizationState =
  | { readonly status: 'absent' }
  | {
      readonly status: 'live';
      readonly id: string;
      readonly name: string;
      readonly slug: string;
      readonly personal: boolean;
      readonly members: ReadonlyMap<string, Role>;
      readonly invitations: ReadonlyMap<string, Invitation>;
      readonly apiKeys: ReadonlyMap<string, ApiKeyState>;
      readonly webhooks: ReadonlyMap<string, WebhookState>;
    };

export const initialOrganizationState: OrganizationState = { status: 'absent' };

function withEntry<K, V>(map: ReadonlyMap<K, V>, key: K, value: V): Map<K, V> {
  return new Map(map).set(key, value);
}

export function evolveOrganization(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  if (event.type === 'OrganizationCreated') {
    if (state.status !== 'absent') return state;
    const { orgId, name, slug, personal } = event.data;
    return {
      status: 'live',
      id: orgId,
      name,
      slug,
      personal,
      members: new Map(),
      invitations: new Map(),
      apiKeys: new Map(),
      webhooks: new Map(),
    };
  }
  if (state.status !== 'live') return state;
  switch (event.type) {
    case 'MemberAdded': {
      const { userId, role, invitationId } = event.data;
      const invitation = invitationId === null ? undefined : state.invitations.get(invitationId);
      return {
        ...state,
        members: withEntry(state.members, userId, role),
        invitations:
          invitationId !== null && invitation
            ? withEntry(state.invitations, invitationId, { ...invitation, status: 'accepted' })
            : state.invitations,
      };
    }
    case 'MemberInvited': {
      const { invitationId, email, role, invitedBy, expiresAt } = event.data;
      return {
        ...state,
        invitations: withEntry(state.invitations, invitationId, {
          email,
          role,
          invitedBy,
          expiresAt,
          status: 'open',
        }),
      };
    }
    case 'InvitationCancelled': {
      const invitation = state.invitations.get(event.data.invitationId);
      if (!invitation || invitation.status !== 'open') return state;
      return {
        ...state,
        invitations: withEntry(state.invitations, event.data.invitationId, {
          ...invitation,
          status: 'cancelled',
        }),
      };
    }
    case 'MemberRoleChanged':
      return { ...state, members: withEntry(state.members, event.data.userId, event.data.to) };
    case 'MemberRemoved': {
      const members = new Map(state.members);
      members.delete(event.data.userId);
      return { ...state, members };
    }
    case 'ApiKeyCreated': {
      const { keyId, role, createdBy } = event.data;
      return { ...state, apiKeys: withEntry(state.apiKeys, keyId, { role, createdBy, revoked: false }) };
    }
    case 'ApiKeyRevoked': {
      const key = state.apiKeys.get(event.data.keyId);
      if (!key) return state;
      return { ...state, apiKeys: withEntry(state.apiKeys, event.data.keyId, { ...key, revoked: true }) };
    }
    case 'WebhookRegistered':
    case 'WebhookRemoved':
    case 'WebhookDisabled':
    case 'WebhookEnabled':
    case 'WebhookSecretRotated':
      return evolveWebhooks(state, event);
  }
}

type LiveOrganizationState = Extract<OrganizationState, { status: 'live' }>;

function evolveWebhooks(state: LiveOrganizationState, event: WebhookEvent): LiveOrganizationState {
  const id = event.data.webhookId;
  if (event.type === 'WebhookRegistered') {
    return { ...state, webhooks: withEntry(state.webhooks, id, { enabled: true, removed: false }) };
  }
  const webhook = state.webhooks.get(id);
  if (!webhook) return state;
  switch (event.type) {
    case 'WebhookRemoved':
      return { ...state, webhooks: withEntry(state.webhooks, id, { enabled: false, removed: true }) };
    case 'WebhookDisabled':
      return { ...state, webhooks: withEntry(state.webhooks, id, { ...webhook, enabled: false }) };
    case 'WebhookEnabled':
      return { ...state, webhooks: withEntry(state.webhooks, id, { ...webhook, enabled: true }) };
    // The secrets live in the API's `webhooks` schema; no rule depends on them.
    case 'WebhookSecretRotated':
      return state;
  }
}

export function foldOrganization(events: readonly OrganizationEvent[]): OrganizationState {
  return events.reduce(evolveOrganization, initialOrganizationState);
}

/** A user's role in the organization, or `null` when they are not (or no longer) a member. */
export function roleIn(state: OrganizationState, userId: string): Role | null {
  return state.status === 'live' ? (state.members.get(userId) ?? null) : null;
}
