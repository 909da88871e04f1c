import type { Pool } from '@portal/platform';

/** An endpoint as the API shows it; the secrets are read only by the worker. */
export interface WebhookRecord {
  readonly id: string;
  readonly orgId: string;
  readonly url: string;
  readonly eventTypes: readonly string[];
  readonly description: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly enabled: boolean;
  readonly disabledAt: Date | null;
  readonly disabledReason: string | null;
  readonly consecutiveFailures: number;
  readonly secretRotatedAt: Date | null;
  /** Until when the secret before the last rotation also signs deliveries. */
  readonly previousSecretExpiresAt: Date | null;
}

interface WebhookRow {
  id: string;
  org_id: string;
  url: string;
  event_types: string[];
  description: string | null;
  created_by: string;
  created_at: Date;
  enabled: boolean;
  disabled_at: Date | null;
  disabled_reason: string | null;
  consecutive_failures: number;
  secret_rotated_at: Date | null;
  previous_secret_expires_at: Date | null;
}

const columns = `id, org_id, url, event_types, description, created_by, created_at, enabled, disabled_at,
  disabled_reason, consecutive_failures, secret_rotated_at, previous_secret_expires_at`;

const toRecord = (row: WebhookRow): WebhookRecord => ({
  id: row.id,
  orgId: row.org_id,
  url: row.url,
  eventTypes: row.event_types,
  description: row.description,
  createdBy: row.created_by,
  createdAt: row.created_at,
  enabled: row.enabled,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
  consecutiveFailures: row.consecutive_failures,
  secretRotatedAt: row.secret_rotated_at,
  previousSecretExpiresAt: row.previous_secret_expires_at,
});

export async function insertWebhook(
  pool: Pool,
  webhook: Pick<
    WebhookRecord,
    'id' | 'orgId' | 'url' | 'eventTypes' | 'description' | 'createdBy' | 'createdAt'
  > & {
    /** Sealed (`sealWebhookSecret`): the clear secret is never written. */
    readonly sealedSecret: string;
  },
): Promise<void> {
  await pool.query(
    `INSERT INTO webhooks.endpoints (id, org_id, url, event_types, description, secret, created_by, created_at,
                                     deliver_from)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [
      webhook.id,
      webhook.orgId,
      webhook.url,
      webhook.eventTypes,
      webhook.description,
      webhook.sealedSecret,
      webhook.createdBy,
      webhook.createdAt,
    ],
  );
}

export async function deleteWebhook(pool: Pool, id: string): Promise<void> {
  await pool.query('DELETE FROM webhooks.endpoints WHERE id = $1', [id]);
}

/** The organization's endpoints that are not removed, oldest first. */
export async function listWebhooks(pool: Pool, orgId: string): Promise<WebhookRecord[]> {
  const result = await pool.query<WebhookRow>(
    `SELECT ${columns} FROM webhooks.endpoints WHERE org_id = $1 AND removed_at IS NULL
      ORDER BY created_at, id`,
    [orgId],
  );
  return result.rows.map(toRecord);
}

/** An endpoint of the organization that is not removed; another organization's is `null`, like none. */
export async function findWebhook(pool: Pool, id: string, orgId: string): Promise<WebhookRecord | null> {
  const result = await pool.query<WebhookRow>(
    `SELECT ${columns} FROM webhooks.endpoints WHERE id = $1 AND org_id = $2 AND removed_at IS NULL`,
    [id, orgId],
  );
  const row = result.rows[0];
  return row ? toRecord(row) : null;
}

/**
 * Endpoints of every organization (or of one), not removed, for the admin console: oldest first, at most
 * `limit`; `disabledOnly` keeps those the worker (or anyone) disabled.
 */
export async function listWebhooksOfAnyOrganization(
  pool: Pool,
  filter: { readonly orgId: string | null; readonly disabledOnly: boolean; readonly limit: number },
): Promise<WebhookRecord[]> {
  const result = await pool.query<WebhookRow>(
    `SELECT ${columns} FROM webhooks.endpoints
      WHERE removed_at IS NULL AND ($1::uuid IS NULL OR org_id = $1) AND (NOT $2 OR NOT enabled)
      ORDER BY created_at, id LIMIT $3`,
    [filter.orgId, filter.disabledOnly, filter.limit],
  );
  return result.rows.map(toRecord);
}

/** An endpoint that is not removed, whatever its organization (the admin console acts on any). */
export async function findWebhookOfAnyOrganization(pool: Pool, id: string): Promise<WebhookRecord | null> {
  const result = await pool.query<WebhookRow>(
    `SELECT ${columns} FROM webhooks.endpoints WHERE id = $1 AND removed_at IS NULL`,
    [id],
  );
  const row = result.rows[0];
  return row ? toRecord(row) : null;
}

/** Removed here first: the dispatcher stops enqueuing for it even if recording WebhookRemoved fails. */
export async function markWebhookRemoved(pool: Pool, id: string, at: Date): Promise<void> {
  await pool.query(
    'UPDATE webhooks.endpoints SET removed_at = $2, enabled = false WHERE id = $1 AND removed_at IS NULL',
    [id, at],
  );
}

/** Deliveries resume with the events from `at` on; the failure count starts again. */
export async function markWebhookEnabled(pool: Pool, id: string, at: Date): Promise<void> {
  await pool.query(
    `UPDATE webhooks.endpoints
        SET enabled = true, disabled_at = NULL, disabled_reason = NULL, consecutive_failures = 0,
            deliver_from = $2
      WHERE id = $1 AND removed_at IS NULL AND NOT enabled`,
    [id, at],
  );
}
