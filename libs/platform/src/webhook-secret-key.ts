import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { ConfigError, type Config } from './config.js';
import { SecretBox } from './secret-box.js';

/**
 * Outside production, without `WEBHOOK_SECRET_KEY`, every process derives this same key, so the worker
 * opens what the API sealed (a random key per process would not). It is public: it keeps secrets out of
 * plain sight in a development database and nothing more.
 */
const DEVELOPMENT_KEY_SEED = 'portal-catalog-service: public development key for webhook signing secrets';

/**
 * The box webhook signing secrets are sealed in at rest (docs/webhooks.md). Production refuses to start
 * without `WEBHOOK_SECRET_KEY`; elsewhere the development key is used, with a warning at every start.
 */
export function webhookSecretBox(
  config: Pick<Config, 'NODE_ENV' | 'WEBHOOK_SECRET_KEY'>,
  logger: Pick<Logger, 'warn'>,
): SecretBox {
  if (config.WEBHOOK_SECRET_KEY !== undefined) {
    return new SecretBox(Buffer.from(config.WEBHOOK_SECRET_KEY, 'base64'));
  }
  if (config.NODE_ENV === 'production') {
    throw new ConfigError('invalid configuration: WEBHOOK_SECRET_KEY: is required when NODE_ENV=production');
  }
  logger.warn(
    'WEBHOOK_SECRET_KEY is not set: webhook signing secrets are sealed with the public development key; set it (openssl rand -base64 32) before any real receiver is registered',
  );
  return new SecretBox(createHash('sha256').update(DEVELOPMENT_KEY_SEED).digest());
}

/** A webhook's secret opens only in its own row. */
export function webhookSecretContext(webhookId: string): string {
  return `webhook-secret:${webhookId}`;
}

/**
 * The signing secret of a row: sealed, or kept as it was written before secrets were sealed (`whsec_…`;
 * the API seals those at start, and a worker may read one first). Throws `SecretBoxError` when it does
 * not open.
 */
export function openWebhookSecret(box: SecretBox, webhookId: string, stored: string): string {
  return SecretBox.isSealed(stored) ? box.open(stored, webhookSecretContext(webhookId)) : stored;
}
