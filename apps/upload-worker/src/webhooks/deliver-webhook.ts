import type { Logger, OutboundPolicy, Pool, SecretBox } from '@portal/platform';
import {
  countFailedDelivery,
  disableTarget,
  findTarget,
  recordAttempt,
  resetFailures,
} from './endpoint-store.js';
import { postDelivery, type PostResult } from './post-delivery.js';
import { recordDisable, type RecordDisableDependencies } from './record-disable.js';
import { signatureHeader } from './signature.js';
import { signingSecretsOf } from './signing-secrets.js';
import { deliveryIdOf, type DeliverWebhookJobData } from './webhook-queue.js';

export interface DeliveryDependencies extends RecordDisableDependencies {
  readonly pool: Pool;
  readonly logger: Logger;
  readonly policy: OutboundPolicy;
  /** Attempts of one delivery (the job's); the last failing one counts the delivery as failed. */
  readonly attempts: number;
  readonly disableAfterFailures: number;
  /** Opens the signing secrets the API sealed (the same `WEBHOOK_SECRET_KEY`). */
  readonly secrets: SecretBox;
  readonly post?: typeof postDelivery;
}

export type DeliveryOutcome = 'delivered' | 'skipped';

/** Thrown to make BullMQ retry; its message is the attempt's error, already recorded. */
export class DeliveryAttemptFailed extends Error {
  override readonly name = 'DeliveryAttemptFailed';
}

/**
 * One attempt of one delivery: signs with a fresh timestamp, POSTs, records the attempt. A failure is
 * thrown so the queue retries with backoff; when it was the last attempt, the endpoint's run of failed
 * deliveries grows, and at `disableAfterFailures` the endpoint is disabled (row first, so no job is
 * enqueued for it any more, then WebhookDisabled). An endpoint removed or disabled meanwhile is skipped.
 */
export async function deliverWebhook(
  deps: DeliveryDependencies,
  job: { readonly data: DeliverWebhookJobData; readonly attemptsMade: number },
): Promise<DeliveryOutcome> {
  const { webhookId, eventId, payload } = job.data;
  const target = await findTarget(deps.pool, webhookId);
  if (!target?.active) return 'skipped';
  const deliveryId = deliveryIdOf(webhookId, eventId);
  const body = JSON.stringify(payload);
  const attemptedAt = deps.now();
  // A secret that does not open is this deployment's fault, not the receiver's: the job fails (and is
  // logged) without an attempt recorded or counted against the endpoint.
  const secrets = signingSecretsOf(deps.secrets, target, attemptedAt, deps.logger);
  const post = deps.post ?? postDelivery;
  const result: PostResult = await post(
    {
      url: target.url,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'portal-catalog-service-webhooks/1',
        'x-portal-event': payload.type,
        'x-portal-delivery': deliveryId,
        'x-portal-signature': signatureHeader(secrets, body, attemptedAt),
      },
    },
    deps.policy,
  );
  const attempt = job.attemptsMade + 1;
  await recordAttempt(deps.pool, {
    webhookId,
    deliveryId,
    eventId: payload.id,
    eventType: payload.type,
    attempt,
    attemptedAt,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: result.durationMs,
  });
  if (result.error === null) {
    await resetFailures(deps.pool, webhookId);
    return 'delivered';
  }
  if (attempt >= deps.attempts) await deliveryFailed(deps, target.orgId, webhookId, result.error);
  throw new DeliveryAttemptFailed(result.error);
}

async function deliveryFailed(
  deps: DeliveryDependencies,
  orgId: string,
  webhookId: string,
  lastError: string,
): Promise<void> {
  const failures = await countFailedDelivery(deps.pool, webhookId);
  if (failures === null || failures < deps.disableAfterFailures) return;
  const reason = `${failures} deliveries in a row failed after ${deps.attempts} attempts each; the last: ${lastError}`;
  if (!(await disableTarget(deps.pool, webhookId, reason, deps.now()))) return;
  deps.logger.warn({ webhookId, orgId, failures }, 'webhook endpoint disabled');
  try {
    await recordDisable(deps, { orgId, webhookId, reason });
  } catch (error) {
    // The row already stops deliveries; the audit event is what is missing, so say so loudly.
    deps.logger.error(
      { err: error, webhookId, orgId },
      'webhook disabled, but WebhookDisabled was not recorded',
    );
  }
}
