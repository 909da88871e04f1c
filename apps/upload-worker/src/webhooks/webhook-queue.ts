import { createHash } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

export const WEBHOOK_QUEUE_NAME = 'webhooks';
export const DELIVER_WEBHOOK_JOB = 'deliver-webhook';
/** The backoff type the webhook worker's own strategy answers (backoff.ts). */
export const WEBHOOK_BACKOFF = 'webhook';

/** What a receiver gets: the event as the audit read model holds it (docs/webhooks.md). */
export interface WebhookPayload {
  /** The event's position: unique, ordered, stable across a projector rebuild. */
  readonly id: string;
  readonly type: string;
  readonly occurredAt: string;
  readonly organizationId: string;
  readonly object: { readonly id: string; readonly kind: string | null } | null;
  readonly actor: { readonly id: string; readonly name: string | null } | null;
  readonly data: unknown;
}

export interface DeliverWebhookJobData {
  readonly webhookId: string;
  /** The event's id (uuid): with the endpoint, what makes the job and the delivery id. */
  readonly eventId: string;
  readonly payload: WebhookPayload;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * One job per (endpoint, event), named by both: the dispatcher enqueuing the same rows again after a
 * crash (its cursor not yet saved) lands on the jobs it made before, which BullMQ keeps for a day.
 */
export function deliveryJobId(webhookId: string, eventId: string): string {
  return `webhook-${digest(`${webhookId}/${eventId}`).slice(0, 40)}`;
}

/** `X-Portal-Delivery`: a UUID-shaped id, the same for every attempt, so a receiver can drop repeats. */
export function deliveryIdOf(webhookId: string, eventId: string): string {
  const hex = digest(`delivery/${webhookId}/${eventId}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface DeliveryRetries {
  readonly attempts: number;
}

const DAY_SECONDS = 86_400;

/** The dispatcher's side of the queue. */
export class WebhookQueue {
  readonly queue: Queue;

  constructor(
    connection: Redis,
    prefix: string,
    private readonly retries: DeliveryRetries,
  ) {
    this.queue = new Queue(WEBHOOK_QUEUE_NAME, { connection, prefix });
  }

  /** Enqueues in one round trip; a job id that exists already is left as it is. */
  async enqueue(jobs: readonly DeliverWebhookJobData[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue.addBulk(
      jobs.map((data) => ({
        name: DELIVER_WEBHOOK_JOB,
        data,
        opts: {
          jobId: deliveryJobId(data.webhookId, data.eventId),
          attempts: this.retries.attempts,
          backoff: { type: WEBHOOK_BACKOFF },
          // Kept a day, so a re-enqueue after a dispatcher crash finds the id and adds nothing.
          removeOnComplete: { age: DAY_SECONDS },
          removeOnFail: { age: 7 * DAY_SECONDS },
        },
      })),
    );
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
