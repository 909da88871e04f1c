import type { WebhookDelivery } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { decodeCursor, encodeCursor } from '../read-model/cursor.js';
import { HttpProblem } from '../http/problem.js';

interface DeliveryRow {
  seq: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  succeeded: boolean;
}

/** A cursor is the seq of the last attempt shown, as text (a bigint). */
function afterSeq(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const [seq] = decodeCursor(cursor, 1);
  if (typeof seq !== 'string' || !/^\d{1,19}$/.test(seq)) {
    throw new HttpProblem(400, 'cursor: not a cursor returned by this API', 'INVALID_CURSOR');
  }
  return seq;
}

/** The endpoint's delivery attempts, newest first. */
export async function listDeliveries(
  pool: Pool,
  webhookId: string,
  page: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<{ items: WebhookDelivery[]; next: string | null }> {
  const before = afterSeq(page.cursor);
  const result = await pool.query<DeliveryRow>(
    `SELECT seq, delivery_id, event_id, event_type, attempt, attempted_at, status_code, error, duration_ms,
            succeeded
       FROM webhooks.deliveries
      WHERE webhook_id = $1 AND ($2::bigint IS NULL OR seq < $2::bigint)
      ORDER BY seq DESC
      LIMIT $3`,
    [webhookId, before, page.limit + 1],
  );
  const rows = result.rows.slice(0, page.limit);
  const last = rows.at(-1);
  return {
    items: rows.map((row) => ({
      deliveryId: row.delivery_id,
      eventId: row.event_id,
      eventType: row.event_type,
      attempt: row.attempt,
      attemptedAt: row.attempted_at.toISOString(),
      statusCode: row.status_code,
      error: row.error,
      durationMs: row.duration_ms,
      succeeded: row.succeeded,
    })),
    next: result.rows.length > page.limit && last ? encodeCursor([last.seq]) : null,
  };
}
