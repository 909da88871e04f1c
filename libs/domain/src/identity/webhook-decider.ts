import { DomainError } from '../errors.js';
import { atLeast, weakerRole } from '../access/roles.js';
import type { WebhookEvent } from './events.js';
import {
  isOperator,
  type OperatorActor,
  type OrganizationActor,
  type WebhookCommand,
} from './organization-commands.js';
import type { OrganizationState, WebhookState } from './organization-state.js';

type LiveOrganization = Extract<OrganizationState, { status: 'live' }>;

/**
 * Webhook endpoints are the organization's: admins and owners register, remove, re-enable them and
 * rotate their signing secrets (an API key with its role capped as everywhere). Only the delivery worker disables one, so `DisableWebhook`
 * checks no role; the operator may re-enable one (`EnableWebhook`) without being a member. A command that changes nothing (removing a removed endpoint, enabling an enabled one)
 * decides no event.
 */
export function decideWebhook(command: WebhookCommand, state: LiveOrganization): WebhookEvent[] {
  const orgId = state.id;
  switch (command.type) {
    case 'RegisterWebhook': {
      const { webhookId, host, eventTypes, description, actor } = command.data;
      requireAdmin(state, actor, 'register webhooks');
      if (state.webhooks.has(webhookId))
        throw new DomainError('ALREADY_EXISTS', 'the webhook already exists');
      if (eventTypes.length === 0) {
        throw new DomainError('INVALID_COMMAND', "a webhook needs at least one event type, or '*'");
      }
      return [
        {
          type: 'WebhookRegistered',
          data: { orgId, webhookId, host, eventTypes, description, createdBy: actor.userId },
        },
      ];
    }
    case 'RemoveWebhook': {
      const { webhookId, actor } = command.data;
      requireAdmin(state, actor, 'remove webhooks');
      const webhook = requireWebhook(state, webhookId);
      return webhook.removed ? [] : [{ type: 'WebhookRemoved', data: { orgId, webhookId } }];
    }
    case 'EnableWebhook': {
      const { webhookId, actor } = command.data;
      requireAdmin(state, actor, 'enable webhooks');
      const webhook = requireLive(state, webhookId);
      return webhook.enabled ? [] : [{ type: 'WebhookEnabled', data: { orgId, webhookId } }];
    }
    case 'RotateWebhookSecret': {
      const { webhookId, previousSecretExpiresAt, actor } = command.data;
      requireAdmin(state, actor, 'rotate webhook secrets');
      requireLive(state, webhookId);
      return [{ type: 'WebhookSecretRotated', data: { orgId, webhookId, previousSecretExpiresAt } }];
    }
    case 'DisableWebhook': {
      const { webhookId, reason } = command.data;
      const webhook = state.webhooks.get(webhookId);
      if (!webhook || webhook.removed || !webhook.enabled) return [];
      return [{ type: 'WebhookDisabled', data: { orgId, webhookId, reason } }];
    }
  }
}

function requireAdmin(
  state: LiveOrganization,
  actor: OrganizationActor | OperatorActor,
  doing: string,
): void {
  if (isOperator(actor)) return;
  const member = state.members.get(actor.userId) ?? null;
  if (member === null) throw new DomainError('NOT_FOUND', 'organization not found');
  const role = actor.roleCap === null ? member : weakerRole(member, actor.roleCap);
  if (!atLeast(role, 'admin'))
    throw new DomainError('FORBIDDEN', `to ${doing} you need the admin role or higher`);
}

function requireWebhook(state: LiveOrganization, webhookId: string): WebhookState {
  const webhook = state.webhooks.get(webhookId);
  if (!webhook) throw new DomainError('NOT_FOUND', 'webhook not found');
  return webhook;
}

function requireLive(state: LiveOrganization, webhookId: string): WebhookState {
  const webhook = requireWebhook(state, webhookId);
  if (webhook.removed) throw new DomainError('NOT_FOUND', 'webhook not found');
  return webhook;
}
