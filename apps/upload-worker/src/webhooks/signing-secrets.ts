import { openWebhookSecret, SecretBoxError, type Logger, type SecretBox } from '@portal/platform';
import type { DeliveryTarget } from './endpoint-store.js';

/**
 * The secrets an attempt at `at` is signed with: the current one, and the previous one while its grace
 * period runs (strictly before `previousSecretExpiresAt`). Throws `SecretBoxError` when a secret does not
 * open: a `WEBHOOK_SECRET_KEY` other than the API's, or a changed row.
 */
export function signingSecretsOf(
  box: SecretBox,
  target: DeliveryTarget,
  at: Date,
  logger: Pick<Logger, 'error'>,
): string[] {
  try {
    const secrets = [openWebhookSecret(box, target.id, target.secret)];
    const { previousSecret, previousSecretExpiresAt } = target;
    if (previousSecret !== null && previousSecretExpiresAt !== null && at < previousSecretExpiresAt) {
      secrets.push(openWebhookSecret(box, target.id, previousSecret));
    }
    return secrets;
  } catch (error) {
    if (error instanceof SecretBoxError) {
      logger.error(
        { webhookId: target.id, orgId: target.orgId, reason: error.message },
        "a webhook signing secret does not open: is this worker's WEBHOOK_SECRET_KEY the API's?",
      );
    }
    throw error;
  }
}
