import { handleCommand, type CommandHandling } from '@portal/commands';
import {
  organizationDecider,
  organizationStreamId,
  type EventMetadata,
  type OperatorActor,
  type OrganizationActor,
  type Position,
} from '@portal/domain';
import type { Pool } from '@portal/platform';
import { markWebhookEnabled } from './webhook-store.js';

/**
 * Turns deliveries of a disabled endpoint on again: the row is marked right before WebhookEnabled is
 * appended, so the dispatcher resumes with events from `at` on. An endpoint the stream already shows
 * enabled decides no event, and the row follows the stream all the same. `POST
 * /api/v1/webhooks/{id}/enable` (an admin) and the admin console's `webhooks enable` (the operator).
 */
export async function recordWebhookEnabled(
  deps: { readonly handling: CommandHandling; readonly pool: Pool },
  input: {
    readonly orgId: string;
    readonly webhookId: string;
    readonly actor: OrganizationActor | OperatorActor;
    readonly metadata: EventMetadata;
    readonly at: Date;
  },
): Promise<{ readonly position: Position | null }> {
  const { webhookId, actor, at } = input;
  const result = await handleCommand(deps.handling, {
    streamId: organizationStreamId(input.orgId),
    decider: organizationDecider,
    command: { type: 'EnableWebhook', data: { webhookId, actor } },
    metadata: input.metadata,
    sideEffect: { apply: () => markWebhookEnabled(deps.pool, webhookId, at) },
  });
  if (result.position === null) await markWebhookEnabled(deps.pool, webhookId, at);
  return { position: result.position };
}
