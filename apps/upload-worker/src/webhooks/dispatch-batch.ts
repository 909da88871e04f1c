import type { Pool, PoolClient } from '@portal/platform';
import { inTransaction } from '@portal/platform';
import type { DeliverWebhookJobData, WebhookPayload } from './webhook-queue.js';

export const CURSOR_NAME = 'audit_events';

export interface DispatchDependencies {
  readonly pool: Pool;
  readonly queue: { enqueue(jobs: readonly DeliverWebhookJobData[]): Promise<void> };
  /** The projector's read schema (`read`): `audit_events` and `users` are read there. */
  readonly readSchema: string;
  readonly batchSize: number;
}

export interface DispatchReport {
  /** Audit rows read (each moves the cursor). */
  readonly rows: number;
  readonly jobs: number;
  /** True while a rebuild of the audit read model hides the cursor's row: nothing was read. */
  readonly waiting: boolean;
}

interface BatchRow {
  seq: string;
  event_id: string;
  position: string;
  type: string;
  org_id: string | null;
  object_id: string | null;
  object_kind: string | null;
  actor_id: string | null;
  actor_name: string | null;
  occurred_at: Date;
  data: unknown;
  webhook_id: string | null;
}

/**
 * The cursor, taken `FOR UPDATE` so two dispatchers (a leadership hand-over) never move it at once.
 * The audit seq is renumbered by a rebuild, so the row is found again by its event id when they differ.
 */
async function lockCursor(client: PoolClient, readSchema: string): Promise<{ seq: string } | 'waiting'> {
  await client.query(
    `INSERT INTO webhooks.dispatch_cursor (name, last_seq, last_event_id) VALUES ($1, 0, NULL)
     ON CONFLICT (name) DO NOTHING`,
    [CURSOR_NAME],
  );
  const cursor = await client.query<{ last_seq: string; last_event_id: string | null }>(
    'SELECT last_seq, last_event_id FROM webhooks.dispatch_cursor WHERE name = $1 FOR UPDATE',
    [CURSOR_NAME],
  );
  const row = cursor.rows[0];
  if (!row || row.last_event_id === null) return { seq: row?.last_seq ?? '0' };
  const found = await client.query<{ seq: string }>(
    `SELECT seq FROM ${readSchema}.audit_events WHERE event_id = $1`,
    [row.last_event_id],
  );
  const seq = found.rows[0]?.seq;
  return seq === undefined ? 'waiting' : { seq };
}

function payloadOf(row: BatchRow & { org_id: string }): WebhookPayload {
  return {
    id: row.position,
    type: row.type,
    occurredAt: row.occurred_at.toISOString(),
    organizationId: row.org_id,
    object: row.object_id === null ? null : { id: row.object_id, kind: row.object_kind },
    actor: row.actor_id === null ? null : { id: row.actor_id, name: row.actor_name },
    data: row.data,
  };
}

/**
 * Reads the next audit rows after the cursor, in projection order, with the enabled endpoints of their
 * organization that want their type and were registered (or enabled again) by the time they occurred; enqueues one job per
 * (endpoint, event) and then moves the cursor past every row read, in one transaction. A crash between
 * the two enqueues the same job ids again, which adds nothing.
 */
export async function dispatchBatch(deps: DispatchDependencies): Promise<DispatchReport> {
  return inTransaction(deps.pool, async (client) => {
    const cursor = await lockCursor(client, deps.readSchema);
    if (cursor === 'waiting') return { rows: 0, jobs: 0, waiting: true };
    const result = await client.query<BatchRow>(
      `WITH batch AS (
         SELECT seq, event_id, position, type, org_id, object_id, object_kind, actor_id, occurred_at, data
           FROM ${deps.readSchema}.audit_events
          WHERE seq > $1
          ORDER BY seq
          LIMIT $2)
       SELECT b.seq, b.event_id, b.position, b.type, b.org_id, b.object_id, b.object_kind, b.actor_id,
              u.name AS actor_name, b.occurred_at, e.id AS webhook_id,
              -- Most rows match no endpoint: only the cursor needs them, so their payload stays in
              -- the database instead of crossing the wire and being parsed for nothing.
              CASE WHEN e.id IS NULL THEN NULL ELSE b.data END AS data
         FROM batch b
         LEFT JOIN webhooks.endpoints e
           ON e.org_id = b.org_id AND e.enabled AND e.removed_at IS NULL
          AND b.occurred_at >= e.deliver_from
          AND e.event_types && ARRAY['*', b.type]
         LEFT JOIN ${deps.readSchema}.users u ON u.id = b.actor_id AND e.id IS NOT NULL
        ORDER BY b.seq, e.id`,
      [cursor.seq, deps.batchSize],
    );
    const last = result.rows.at(-1);
    if (!last) return { rows: 0, jobs: 0, waiting: false };
    const jobs: DeliverWebhookJobData[] = [];
    for (const row of result.rows) {
      if (row.webhook_id === null || row.org_id === null) continue;
      jobs.push({
        webhookId: row.webhook_id,
        eventId: row.event_id,
        payload: payloadOf({ ...row, org_id: row.org_id }),
      });
    }
    await deps.queue.enqueue(jobs);
    await client.query(
      'UPDATE webhooks.dispatch_cursor SET last_seq = $2, last_event_id = $3 WHERE name = $1',
      [CURSOR_NAME, last.seq, last.event_id],
    );
    return { rows: new Set(result.rows.map((row) => row.seq)).size, jobs: jobs.length, waiting: false };
  });
}
