import type { Role } from '../access/roles.js';

/**
 * Identity events. Passwords, their hashes, session ids and API keys never enter an event: they live in
 * the API's `auth` schema. The actor of each event is in its metadata.
 */
export interface UserRegistered {
  readonly type: 'UserRegistered';
  readonly data: { readonly userId: string; readonly email: string; readonly name: string };
}

/**
 * The operator disabled the account (docs/admin-cli.md): it can no longer sign in, its sessions and
 * tokens stop working and its API keys are refused. Memberships and objects stay as they were.
 */
export interface UserDisabled {
  readonly type: 'UserDisabled';
  readonly data: { readonly userId: string; readonly reason: string | null };
}

export type UserEvent = UserRegistered | UserDisabled;

export interface OrganizationCreated {
  readonly type: 'OrganizationCreated';
  readonly data: {
    readonly orgId: string;
    readonly name: string;
    readonly slug: string;
    /** The organization every user gets at sign-up. */
    readonly personal: boolean;
    readonly createdBy: string;
  };
}

/** A user joined: the creator as owner, an invitee on acceptance, or an owner the operator appointed. */
export interface MemberAdded {
  readonly type: 'MemberAdded';
  readonly data: {
    readonly orgId: string;
    readonly userId: string;
    readonly role: Role;
    /** The invitation accepted; `null` for the organization's creator or an owner the operator appointed. */
    readonly invitationId: string | null;
  };
}

export interface MemberInvited {
  readonly type: 'MemberInvited';
  readonly data: {
    readonly orgId: string;
    readonly invitationId: string;
    /** Lower-cased; only a user signed in with this email can accept. */
    readonly email: string;
    readonly role: Role;
    readonly invitedBy: string;
    readonly expiresAt: string;
  };
}

/**
 * Why an invitation ended before anyone accepted it: an admin withdrew it, or the member who sent it was
 * removed (or left), or was demoted below the role needed to invite at the invitation's role. An
 * invitation is only as good as its sender's right to make it.
 */
export type InvitationCancelReason = 'cancelled' | 'inviter-removed' | 'inviter-demoted';

/** A pending invitation ended: it can no longer be accepted. Expiry needs no event (`expiresAt`). */
export interface InvitationCancelled {
  readonly type: 'InvitationCancelled';
  readonly data: {
    readonly orgId: string;
    readonly invitationId: string;
    readonly reason: InvitationCancelReason;
  };
}

export interface MemberRoleChanged {
  readonly type: 'MemberRoleChanged';
  readonly data: { readonly orgId: string; readonly userId: string; readonly from: Role; readonly to: Role };
}

export interface MemberRemoved {
  readonly type: 'MemberRemoved';
  readonly data: { readonly orgId: string; readonly userId: string; readonly role: Role };
}

export interface ApiKeyCreated {
  readonly type: 'ApiKeyCreated';
  readonly data: {
    readonly orgId: string;
    readonly keyId: string;
    readonly name: string;
    readonly role: Role;
    /** The user the key acts as. */
    readonly createdBy: string;
    /** The key's first characters, so a person can tell keys apart; never the secret part. */
    readonly prefix: string;
    readonly expiresAt: string | null;
  };
}

export interface ApiKeyRevoked {
  readonly type: 'ApiKeyRevoked';
  readonly data: { readonly orgId: string; readonly keyId: string };
}

/**
 * Webhook endpoints of the organization (docs/webhooks.md). The endpoint's URL may carry a credential of
 * the receiver (a token in its path or query), and its signing secret is one: both stay in the API's
 * `webhooks` schema. The event names the endpoint's host, so an auditor sees where events go.
 */
export interface WebhookRegistered {
  readonly type: 'WebhookRegistered';
  readonly data: {
    readonly orgId: string;
    readonly webhookId: string;
    readonly host: string;
    /** Event types delivered, or `['*']` for every type. */
    readonly eventTypes: readonly string[];
    readonly description: string | null;
    readonly createdBy: string;
  };
}

export interface WebhookRemoved {
  readonly type: 'WebhookRemoved';
  readonly data: { readonly orgId: string; readonly webhookId: string };
}

/** Deliveries stopped: by the worker after too many failed deliveries (no actor), with the reason. */
export interface WebhookDisabled {
  readonly type: 'WebhookDisabled';
  readonly data: { readonly orgId: string; readonly webhookId: string; readonly reason: string };
}

/** An admin turned deliveries on again after a disable. */
export interface WebhookEnabled {
  readonly type: 'WebhookEnabled';
  readonly data: { readonly orgId: string; readonly webhookId: string };
}

/**
 * The endpoint signs with a new secret from now on; the previous one also signs until
 * `previousSecretExpiresAt`, so receivers can switch without missing a delivery. Neither secret is here.
 */
export interface WebhookSecretRotated {
  readonly type: 'WebhookSecretRotated';
  readonly data: {
    readonly orgId: string;
    readonly webhookId: string;
    readonly previousSecretExpiresAt: string;
  };
}

export type WebhookEvent =
  WebhookRegistered | WebhookRemoved | WebhookDisabled | WebhookEnabled | WebhookSecretRotated;

export type OrganizationEvent =
  | OrganizationCreated
  | MemberAdded
  | MemberInvited
  | InvitationCancelled
  | MemberRoleChanged
  | MemberRemoved
  | ApiKeyCreated
  | ApiKeyRevoked
  | WebhookEvent;

export type IdentityEvent = UserEvent | OrganizationEvent;
export type IdentityEventType = IdentityEvent['type'];

export const userStreamId = (userId: string): string => `user-${userId}`;
export const organizationStreamId = (orgId: string): string => `org-${orgId}`;
