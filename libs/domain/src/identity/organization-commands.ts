import type { Role } from '../access/roles.js';

/**
 * The signed-in user acting on the organization. Their role is not part of it: the decider reads it from
 * the organization's own events, the truth, and caps it with `roleCap`.
 */
export interface OrganizationActor {
  readonly userId: string;
  readonly email: string;
  /**
   * The highest role the credential may use (an API key's own role); `null` for a person's session or
   * JWT. A key of an owner capped at admin acts as an admin here too.
   */
  readonly roleCap: Role | null;
}

/**
 * The platform's operator at the admin console (`npm run admin`, docs/admin-cli.md): not a member, and
 * not bound by the organization's roles. Only the commands that name it accept it.
 */
export interface OperatorActor {
  /** Who ran the command, as the admin console names them (`PORTAL_OPERATOR`, else `user@host`). */
  readonly operator: string;
}

export function isOperator(actor: OrganizationActor | OperatorActor): actor is OperatorActor {
  return 'operator' in actor;
}

export type OrganizationCommand =
  | {
      readonly type: 'CreateOrganization';
      readonly data: {
        readonly orgId: string;
        readonly name: string;
        readonly slug: string;
        readonly personal: boolean;
        readonly ownerId: string;
      };
    }
  | {
      readonly type: 'InviteMember';
      readonly data: {
        readonly invitationId: string;
        readonly email: string;
        readonly role: Role;
        readonly expiresAt: string;
        readonly actor: OrganizationActor;
      };
    }
  | {
      readonly type: 'AcceptInvitation';
      readonly data: {
        readonly invitationId: string;
        readonly now: string;
        readonly actor: OrganizationActor;
      };
    }
  | {
      /** Withdraw a pending invitation; `now` tells an expired one, which needs no cancelling. */
      readonly type: 'CancelInvitation';
      readonly data: {
        readonly invitationId: string;
        readonly now: string;
        readonly actor: OrganizationActor;
      };
    }
  | {
      readonly type: 'ChangeMemberRole';
      readonly data: { readonly userId: string; readonly role: Role; readonly actor: OrganizationActor };
    }
  | {
      /**
       * The operator makes a user an owner: a member is promoted, anyone else joins as owner. For an
       * organization whose owners are gone or locked out; members change roles among themselves.
       */
      readonly type: 'AppointOwner';
      readonly data: { readonly userId: string; readonly actor: OperatorActor };
    }
  | {
      readonly type: 'RemoveMember';
      readonly data: { readonly userId: string; readonly actor: OrganizationActor };
    }
  | {
      readonly type: 'CreateApiKey';
      readonly data: {
        readonly keyId: string;
        readonly name: string;
        readonly role: Role;
        readonly prefix: string;
        readonly expiresAt: string | null;
        readonly actor: OrganizationActor;
      };
    }
  | {
      readonly type: 'RevokeApiKey';
      readonly data: { readonly keyId: string; readonly actor: OrganizationActor };
    }
  | WebhookCommand;

/** Webhook endpoint commands (docs/webhooks.md); `webhook-decider.ts` decides them. */
export type WebhookCommand =
  | {
      readonly type: 'RegisterWebhook';
      readonly data: {
        readonly webhookId: string;
        readonly host: string;
        readonly eventTypes: readonly string[];
        readonly description: string | null;
        readonly actor: OrganizationActor;
      };
    }
  | {
      readonly type: 'RemoveWebhook';
      readonly data: { readonly webhookId: string; readonly actor: OrganizationActor };
    }
  | {
      readonly type: 'EnableWebhook';
      /** An admin of the organization, or the operator re-enabling an endpoint the worker disabled. */
      readonly data: { readonly webhookId: string; readonly actor: OrganizationActor | OperatorActor };
    }
  | {
      readonly type: 'RotateWebhookSecret';
      readonly data: {
        readonly webhookId: string;
        readonly previousSecretExpiresAt: string;
        readonly actor: OrganizationActor;
      };
    }
  | {
      /** The delivery worker's own decision: no member acts, so no role is checked. */
      readonly type: 'DisableWebhook';
      readonly data: { readonly webhookId: string; readonly reason: string };
    };
