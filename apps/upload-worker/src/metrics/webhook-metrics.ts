import type { Job, Worker } from 'bullmq';
import { Counter, type Registry } from '@portal/platform';

const OUTCOMES = ['delivered', 'skipped', 'retrying', 'failed', 'error'] as const;

/**
 * Webhook delivery attempts by outcome: `delivered`, `skipped` (endpoint removed or disabled),
 * `retrying` (the receiver refused or was unreachable; attempts remain), `failed` (the last attempt
 * failed: the delivery is given up), `error` (our side failed, e.g. a secret that does not open).
 * `isRefusal` tells a receiver's refusal (recorded as an attempt) from our own failure.
 */
export function observeWebhookDeliveries(
  registry: Registry,
  worker: Pick<Worker, 'on'>,
  isRefusal: (error: Error) => boolean,
): void {
  const deliveries = new Counter({
    name: 'portal_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, skipped, retrying, failed (given up), error.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of OUTCOMES) deliveries.inc({ outcome }, 0);
  worker.on('completed', (_job: Job, result: unknown) => {
    deliveries.inc({ outcome: result === 'delivered' ? 'delivered' : 'skipped' });
  });
  worker.on('failed', (job: Job | undefined, error: Error) => {
    if (!isRefusal(error)) {
      deliveries.inc({ outcome: 'error' });
      return;
    }
    const lastAttempt = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
    deliveries.inc({ outcome: lastAttempt ? 'failed' : 'retrying' });
  });
}
