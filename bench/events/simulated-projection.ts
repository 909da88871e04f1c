import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface SimulationPlan {
  readonly databaseUrl: string;
  /** Objects already in `read.portal_objects`; the simulated changes go round them. */
  readonly objectIds: readonly string[];
  readonly changesPerSecond: number;
  /** `performance.now()` times, as for the HTTP load. */
  readonly startAt: number;
  readonly measureFrom: number;
  readonly measureUntil: number;
}

export interface SimulationOutcome {
  readonly changesMade: number;
  readonly measuredChanges: number;
  /** Transactions written (each one audit insert and its NOTIFY, like one projector batch). */
  readonly batches: number;
}

/** How often a batch is written: the projector under load commits a batch every few milliseconds too. */
const TICK_MS = 10;
/** Synthetic positions start this far past the store's head, so they never meet a real one. */
const COMMIT_OFFSET = 1_000_000_000n;

/**
 * The projector's output without its input: rows written to `read.audit_events` (about objects that
 * exist, with their organization and ancestors) and `NOTIFY portal_projection` with the new position, in
 * one transaction, as a projector batch commits them. The API's change feed cannot tell the difference;
 * the write path (API commands, event store, the projector's read models) is left out, so the feed is
 * measured at a rate this machine's write path does not reach.
 *
 * The stack is spent afterwards: the synthetic positions run far ahead of the store, so the API's
 * projection progress (which only moves forward) no longer waits for real events. The bench stops it.
 */
export async function runSimulatedProjection(plan: SimulationPlan): Promise<SimulationOutcome> {
  const client = new pg.Client({ connectionString: plan.databaseUrl, application_name: 'bench-simulated' });
  // Idle between ticks: a connection the server ends then fails the next statement, which ends the run.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const head = await client.query<{ commit: string | null }>(
      `SELECT max(split_part(position, '.', 1)::numeric)::text AS commit FROM read.audit_events`,
    );
    const commit = BigInt(head.rows[0]?.commit ?? '0') + COMMIT_OFFSET;
    let changesMade = 0;
    let measuredChanges = 0;
    let batches = 0;
    for (;;) {
      const now = performance.now();
      if (now >= plan.measureUntil) break;
      const owed = Math.floor(((now - plan.startAt) * plan.changesPerSecond) / 1000) - changesMade;
      if (owed > 0) {
        const positions = Array.from({ length: owed }, (_, index) => `${commit}.${changesMade + index}`);
        const objectIds = positions.map(
          (_, index) => plan.objectIds[(changesMade + index) % plan.objectIds.length] ?? '',
        );
        await writeBatch(client, positions, objectIds);
        changesMade += owed;
        batches += 1;
        if (now >= plan.measureFrom) measuredChanges += owed;
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
    return { changesMade, measuredChanges, batches };
  } finally {
    await client.end();
  }
}

async function writeBatch(
  client: pg.Client,
  positions: readonly string[],
  objectIds: readonly string[],
): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO read.audit_events (event_id, position, stream_id, revision, type, org_id, object_id,
                                      object_kind, ancestor_ids, actor_id, occurred_at, data, metadata)
       SELECT b.event_id, b.position, o.kind || '-' || o.id, 0, 'PortalObjectUpdated', o.org_id, o.id,
              o.kind, o.ancestor_ids, o.created_by, now(), '{}'::jsonb, '{}'::jsonb
         FROM unnest($1::uuid[], $2::text[], $3::uuid[]) WITH ORDINALITY AS b (event_id, position, object_id, n)
         JOIN read.portal_objects o ON o.id = b.object_id
        ORDER BY b.n`,
      [positions.map(() => randomUUID()), positions, objectIds],
    );
    await client.query('SELECT pg_notify($1, $2)', ['portal_projection', positions.at(-1)]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
