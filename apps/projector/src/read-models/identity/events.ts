import type { IdentityEvent, IdentityEventType, RecordedEvent } from '@portal/domain';

const identityEventTypes: ReadonlySet<string> = new Set<IdentityEventType>([
  'UserRegistered',
  'UserDisabled',
  'OrganizationCreated',
  'MemberAdded',
  'MemberInvited',
  'InvitationCancelled',
  'MemberRoleChanged',
  'MemberRemoved',
  'ApiKeyCreated',
  'ApiKeyRevoked',
  'WebhookRegistered',
  'WebhookRemoved',
  'WebhookDisabled',
  'WebhookEnabled',
  'WebhookSecretRotated',
] satisfies readonly IdentityEventType[]);

/**
 * The stored event as the identity event it is, or `null` for a type this read model does not follow.
 * The shape is trusted: only the API's identity commands append these types.
 */
export function asIdentityEvent(recorded: RecordedEvent): IdentityEvent | null {
  if (!identityEventTypes.has(recorded.type)) return null;
  return { type: recorded.type, data: recorded.data } as IdentityEvent;
}
