import { handleCommand } from '@portal/commands';
import {
  DomainError,
  eventMetadata,
  organizationDecider,
  organizationStreamId,
  type EventStore,
} from '@portal/domain';

export interface RecordDisableDependencies {
  readonly eventStore: EventStore;
  readonly now: () => Date;
  readonly newId: () => string;
}

/**
 * Appends WebhookDisabled to the organization's stream: the worker acts for the system (no actor), so
 * the audit feed shows the endpoint was disabled and why. A stream that already says disabled (or
 * removed) decides nothing; a concurrent change is read again and decided again.
 */
export async function recordDisable(
  deps: RecordDisableDependencies,
  target: { readonly orgId: string; readonly webhookId: string; readonly reason: string },
): Promise<void> {
  const { orgId, webhookId, reason } = target;
  await handleCommand(
    { store: deps.eventStore, newId: deps.newId },
    {
      streamId: organizationStreamId(orgId),
      decider: organizationDecider,
      command: { type: 'DisableWebhook', data: { webhookId, reason } },
      metadata: eventMetadata({ actorId: null, orgId, correlationId: deps.newId(), at: deps.now() }),
    },
  ).catch((error: unknown) => {
    // The organization is gone (or never was): there is no endpoint left to disable.
    if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
  });
}
