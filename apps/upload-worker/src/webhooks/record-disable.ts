import {
  ConcurrencyError,
  decideOrganization,
  EVENT_SCHEMA_VERSION,
  foldOrganization,
  organizationStreamId,
  type EventStore,
  type OrganizationEvent,
} from '@portal/domain';

const MAX_DECISIONS = 5;

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
  const streamId = organizationStreamId(target.orgId);
  for (let decision = 1; ; decision += 1) {
    const recorded = await deps.eventStore.readStream(streamId);
    const state = foldOrganization(
      recorded.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent),
    );
    if (state.status !== 'live') return;
    const events = decideOrganization(
      { type: 'DisableWebhook', data: { webhookId: target.webhookId, reason: target.reason } },
      state,
    );
    if (events.length === 0) return;
    const correlationId = deps.newId();
    const metadata = {
      actorId: null,
      orgId: target.orgId,
      correlationId,
      causationId: null,
      requestId: null,
      occurredAt: deps.now().toISOString(),
      schemaVersion: EVENT_SCHEMA_VERSION,
    };
    try {
      await deps.eventStore.append(
        streamId,
        events.map((event) => ({ id: deps.newId(), type: event.type, data: event.data, metadata })),
        { expectedRevision: recorded.at(-1)?.revision ?? 'no_stream' },
      );
      return;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || decision >= MAX_DECISIONS) throw error;
    }
  }
}
