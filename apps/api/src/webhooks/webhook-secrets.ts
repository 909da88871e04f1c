import type { Logger, Pool, SecretBox } from '@portal/platform';
import { webhookSecretContext } from '@portal/platform';
import { randomToken } from '../auth/secrets.js';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: 256 random bits, shown to the caller once. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomToken()}`;
}

export function sealWebhookSecret(box: SecretBox, webhookId: string, secret: string): string {
  return box.seal(secret, webhookSecretContext(webhookId));
}

/**
 * Seals the secrets rows still hold as they were written before secrets were sealed. Run by the API at
 * start; each row is changed only if it still holds what was read, so two APIs starting at once seal
 * it once. Workers open either form meanwhile. Answers how many rows it sealed.
 */
export async function sealClearSecrets(pool: Pool, box: SecretBox, logger: Logger): Promise<number> {
  const clear = await pool.query<{ id: string; secret: string }>(
    `SELECT id, secret FROM webhooks.endpoints WHERE secret NOT LIKE 'enc:%'`,
  );
  let sealed = 0;
  for (const row of clear.rows) {
    const changed = await pool.query(
      'UPDATE webhooks.endpoints SET secret = $2 WHERE id = $1 AND secret = $3',
      [row.id, sealWebhookSecret(box, row.id, row.secret), row.secret],
    );
    sealed += changed.rowCount ?? 0;
  }
  if (sealed > 0) logger.info({ sealed }, 'sealed webhook signing secrets stored in clear text');
  return sealed;
}

/** The secret columns of a row, as stored (sealed). */
export interface StoredSecrets {
  readonly secret: string;
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: Date | null;
  readonly secretRotatedAt: Date | null;
}

/**
 * Makes `sealed` the row's secret and its current one the previous, in one statement (two rotations at
 * once each keep the other's as previous, never lose one). Answers what the row held before, for an undo;
 * `null` when the endpoint is gone.
 */
export async function rotateStoredSecret(
  pool: Pool,
  webhookId: string,
  rotation: { readonly sealed: string; readonly previousExpiresAt: Date; readonly at: Date },
): Promise<StoredSecrets | null> {
  const result = await pool.query<{
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: Date | null;
    secret_rotated_at: Date | null;
  }>(
    `UPDATE webhooks.endpoints e
        SET secret = $2, previous_secret = e.secret, previous_secret_expires_at = $3, secret_rotated_at = $4
       FROM (SELECT id, secret, previous_secret, previous_secret_expires_at, secret_rotated_at
               FROM webhooks.endpoints WHERE id = $1 AND removed_at IS NULL FOR UPDATE) old
      WHERE e.id = old.id
      RETURNING old.secret, old.previous_secret, old.previous_secret_expires_at, old.secret_rotated_at`,
    [webhookId, rotation.sealed, rotation.previousExpiresAt, rotation.at],
  );
  const row = result.rows[0];
  return row
    ? {
        secret: row.secret,
        previousSecret: row.previous_secret,
        previousSecretExpiresAt: row.previous_secret_expires_at,
        secretRotatedAt: row.secret_rotated_at,
      }
    : null;
}

/** Puts back what a rotation replaced, if the row still holds that rotation's secret. */
export async function restoreStoredSecrets(
  pool: Pool,
  webhookId: string,
  sealed: string,
  before: StoredSecrets,
): Promise<void> {
  await pool.query(
    `UPDATE webhooks.endpoints
        SET secret = $3, previous_secret = $4, previous_secret_expires_at = $5, secret_rotated_at = $6
      WHERE id = $1 AND secret = $2`,
    [
      webhookId,
      sealed,
      before.secret,
      before.previousSecret,
      before.previousSecretExpiresAt,
      before.secretRotatedAt,
    ],
  );
}
