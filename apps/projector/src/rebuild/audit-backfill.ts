import { comparePositions, START, type EventStore } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { nextEventAfter } from '../next-event.js';
import { rebuildReadSchema, type RebuildOptions } from './rebuild-read-schema.js';
import { quoteIdentifier, readCheckpoint } from '@portal/read-model-core';

/**
 * Whether the audit trail of `schema` misses history: the projection has applied events (its checkpoint
 * is past `START`) but the store's first event has no audit row. That is a deployment whose read schema
 * was built before the audit read model existed: the projector's checkpoint is already past the old
 * events, so following it would fill the table from now on only. Rows are written in event order (live
 * and by a rebuild, which starts from the first event), so the first event's row stands for them all.
 */
export async function auditTrailIncomplete(
  pool: Pool,
  store: EventStore,
  options: { readonly schema: string; readonly projection: string },
): Promise<boolean> {
  const checkpoint = await readCheckpoint(pool, { schema: options.schema, name: options.projection });
  if (comparePositions(checkpoint, START) === 0) return false;
  const first = await nextEventAfter(store, START);
  if (first === null) return false;
  const found = await pool.query(
    `SELECT 1 FROM ${quoteIdentifier(options.schema)}.audit_events WHERE event_id = $1`,
    [first.id],
  );
  return found.rowCount === 0;
}

export type AuditBackfillOutcome = 'complete' | 'rebuilt' | 'failed';

/**
 * At start-up: when the audit trail misses history (`auditTrailIncomplete`), rebuilds the read schema,
 * which replays every event into a fresh schema and swaps it in while the API keeps reading and the live
 * projector keeps following. A plain re-application of old events into the live table would take each
 * object's organization and ancestors as they are now rather than as they were, so a rebuild it is.
 * Never rejects: a failure is logged and the projector carries on; `npm run rebuild` repairs it later.
 */
export async function backfillAuditTrail(options: RebuildOptions): Promise<AuditBackfillOutcome> {
  const { log } = options;
  try {
    const incomplete = await auditTrailIncomplete(options.pool, options.store, {
      schema: options.schema,
      projection: options.projection.name,
    });
    if (!incomplete) return 'complete';
    log.warn(
      { schema: options.schema },
      'the audit trail misses the events before it was deployed; rebuilding the read schema to fill it',
    );
    const result = await rebuildReadSchema(options);
    log.info({ events: result.events, durationMs: result.durationMs }, 'audit trail backfilled by a rebuild');
    return 'rebuilt';
  } catch (error) {
    log.error(
      { err: error },
      'audit trail backfill failed (another instance may be rebuilding); run `npm run rebuild -w apps/projector`',
    );
    return 'failed';
  }
}
