import { isStructureStream, type RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { auditSubjectOf, auditValues } from './audit-row.js';

/** The columns of the audit insert, each as the array type its parameters travel in. */
const columnTypes = [
  'uuid[]', // event_id
  'text[]', // position
  'text[]', // stream_id
  'bigint[]', // revision
  'text[]', // type
  'uuid[]', // object_id
  'uuid[]', // org_id (of an organization's own events)
  'uuid[]', // actor_id
  'timestamptz[]', // occurred_at
  'jsonb[]', // data
  'jsonb[]', // metadata
  'uuid[]', // the former parent of a move
] as const;

/**
 * The audit rows of a whole run (or of one event applied alone) in one statement, numbered in event
 * order (the rows are inserted in the order of the sort, so `seq` follows it). Each row takes its
 * object's organization, kind and ancestors from its portal_objects row as the same batch left it
 * (that read model applies first); a move's row also keeps the path it left (the former parent's row,
 * which the move does not change, and the former parent itself), so "what happened below this catalog"
 * shows an object moving out as well as one moving in. A replayed event finds its row by event id and
 * changes nothing.
 *
 * The rows read what they would have read right after their own events: no event of a run changes the
 * organization or kind of an object, a move in a run is of an object with nothing below it (only its
 * own row changes place), and the rows of events deferred to a run are written before a run or a lone
 * event that moves anything (`endsDeferral`).
 */
const insertAuditRun = `
  INSERT INTO audit_events (event_id, position, stream_id, revision, type, object_id, org_id, actor_id,
                            occurred_at, data, metadata, object_kind, ancestor_ids)
  SELECT e.event_id, e.position, e.stream_id, e.revision, e.type, e.object_id, COALESCE(o.org_id, e.org_id),
         e.actor_id, e.occurred_at, e.data, e.metadata, o.kind,
         COALESCE(o.ancestor_ids, '{}') || ARRAY(
           SELECT former.id
             FROM unnest(CASE WHEN f.id IS NULL THEN '{}'::uuid[] ELSE f.ancestor_ids || f.id END)
                  WITH ORDINALITY AS former(id, n)
            WHERE NOT former.id = ANY(COALESCE(o.ancestor_ids, '{}'))
            ORDER BY former.n)
    FROM unnest(${columnTypes.map((type, index) => `$${index + 1}::${type}`).join(', ')})
         WITH ORDINALITY AS e(event_id, position, stream_id, revision, type, object_id, org_id, actor_id,
                              occurred_at, data, metadata, former_parent_id, n)
    LEFT JOIN portal_objects o ON o.id = e.object_id
    LEFT JOIN portal_objects f ON f.id = e.former_parent_id
   ORDER BY e.n
  ON CONFLICT (event_id) DO NOTHING`;

export async function insertAuditRows(sql: Sql, events: readonly RecordedEvent[]): Promise<void> {
  const audited = events.filter((event) => !isStructureStream(event.streamId));
  if (audited.length === 0) return;
  const columns: unknown[][] = columnTypes.map(() => []);
  for (const event of audited) {
    auditValues(event, auditSubjectOf(event)).forEach((value, index) => columns[index]?.push(value));
  }
  await sql.query({ name: 'projector_audit_events_insert_run', text: insertAuditRun, values: columns });
}
