import type { Webhook } from '@portal/contracts';
import type { WebhookRecord } from './webhook-store.js';

export function webhookView(record: WebhookRecord): Webhook {
  return {
    id: record.id,
    organizationId: record.orgId,
    url: record.url,
    eventTypes: [...record.eventTypes],
    description: record.description,
    enabled: record.enabled,
    disabledAt: record.disabledAt?.toISOString() ?? null,
    disabledReason: record.disabledReason,
    consecutiveFailures: record.consecutiveFailures,
    createdBy: record.createdBy,
    createdAt: record.createdAt.toISOString(),
    secretRotatedAt: record.secretRotatedAt?.toISOString() ?? null,
    previousSecretExpiresAt: record.previousSecretExpiresAt?.toISOString() ?? null,
  };
}
