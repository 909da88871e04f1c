import type { Pool } from '@portal/platform';

/** What the worker needs of an endpoint: where, the keys to sign with, and whether it still gets events. */
export interface DeliveryTarget {
  readonly id: string;
  readonly orgId: string;
  readonly url: string;
  /** As stored: sealed (or clear text from before secrets were sealed). */
  readonly secret: string;
  /** The secret before the last rotation, and until when it still signs. */
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: Date | null;
  readonly active: boolean;
}

export async function findTarget(pool: Pool, webhookId: string): Promise<DeliveryTarget | null> {
  const result = await pool.query<{
    id: string;
    org_id: string;
    url: string;
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: Date | null;
    active: boolean;
  }>(
    `SELECT id, org_id, url, secret, previous_secret, previous_secret_expires_at,
            (enabled AND removed_at IS NULL) AS active
       FROM webhooks.endpoints WHERE id = $1`,
    [webhookId],
  );
  const row = result.rows[0];
  return row
    ? {
        id: row.id,
        orgId: row.org_id,
        url: row.url,
        secret: row.secret,
        previousSecret: row.previous_secret,
        previousSecretExpiresAt: row.previous_secret_expires_at,
        active: row.active,
      }
    : null;
}

export interface AttemptRecord {
  readonly webhookId: string;
  readonly deliveryId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly attempt: number;
  readonly attemptedAt: Date;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

export async function recordAttempt(pool: Pool, attempt: AttemptRecord): Promise<void> {
  await pool.query(
    `INSERT INTO webhooks.deliveries (webhook_id, delivery_id, event_id, event_type, attempt, attempted_at,
                                      status_code, error, duration_ms, succeeded)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      attempt.webhookId,
      attempt.deliveryId,
      attempt.eventId,
      attempt.eventType,
      attempt.attempt,
      attempt.attemptedAt,
      attempt.statusCode,
      attempt.error,
      attempt.durationMs,
      attempt.error === null,
    ],
  );
}

export async function resetFailures(pool: Pool, webhookId: string): Promise<void> {
  await pool.query(
    'UPDATE webhooks.endpoints SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures <> 0',
    [webhookId],
  );
}

/** Counts a delivery whose every attempt failed; answers the count, or `null` for a gone endpoint. */
export async function countFailedDelivery(pool: Pool, webhookId: string): Promise<number | null> {
  const result = await pool.query<{ consecutive_failures: number }>(
    `UPDATE webhooks.endpoints SET consecutive_failures = consecutive_failures + 1
      WHERE id = $1 AND enabled AND removed_at IS NULL RETURNING consecutive_failures`,
    [webhookId],
  );
  return result.rows[0]?.consecutive_failures ?? null;
}

/** Stops deliveries; `true` when this call did (not an earlier one, nor a removal). */
export async function disableTarget(
  pool: Pool,
  webhookId: string,
  reason: string,
  at: Date,
): Promise<boolean> {
  const result = await pool.query(
    `UPDATE webhooks.endpoints SET enabled = false, disabled_at = $3, disabled_reason = $2
      WHERE id = $1 AND enabled AND removed_at IS NULL`,
    [webhookId, reason, at],
  );
  return (result.rowCount ?? 0) > 0;
}
