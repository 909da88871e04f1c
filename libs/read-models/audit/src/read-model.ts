import { readFileSync } from 'node:fs';
import { isStructureStream } from '@portal/domain';
import type { ReadModel } from '@portal/read-model-core';
import { sqlFileStatements } from '@portal/read-model-core';
import { auditSubjectOf, auditValues } from './audit-row.js';
import { insertAuditRows } from './audit-run.js';

/**
 * One statement per event. The object's organization, kind and ancestors come from its portal_objects
 * row as the same batch left it (that read model applies first). A move also keeps the path it left
 * (the former parent's row, which the move does not change, and the former parent itself), so "what
 * happened below this catalog" shows an object moving out as well as one moving in. A replayed event
 * finds its row by event id and changes nothing.
 */
const insertAuditEvent = {
  name: 'projector_audit_events_insert',
  text: `
    INSERT INTO audit_events (event_id, position, stream_id, revision, type, object_id, org_id, actor_id,
                              occurred_at, data, metadata, object_kind, ancestor_ids)
    SELECT $1, $2, $3, $4, $5, $6::uuid, COALESCE(o.org_id, $7::uuid), $8, $9, $10, $11,
           o.kind,
           COALESCE(o.ancestor_ids, '{}') || ARRAY(
             SELECT former.id
               FROM unnest(CASE WHEN f.id IS NULL THEN '{}'::uuid[] ELSE f.ancestor_ids || f.id END)
                    WITH ORDINALITY AS former(id, n)
              WHERE NOT former.id = ANY(COALESCE(o.ancestor_ids, '{}'))
              ORDER BY former.n)
      FROM (SELECT 1) AS one
      LEFT JOIN portal_objects o ON o.id = $6::uuid
      LEFT JOIN portal_objects f ON f.id = $12::uuid
    ON CONFLICT (event_id) DO NOTHING`,
};

/** `audit_events`: every event in order, with actor, organization and object (docs/audit.md). */
export const auditReadModel: ReadModel = {
  name: 'audit',
  version: 1,
  ddl: readFileSync(new URL('./schema.sql', import.meta.url), 'utf8'),
  readerDdl: sqlFileStatements(new URL('./reader-indexes.sql', import.meta.url)),
  async apply(sql, recorded) {
    // How moves and deletes were serialized is bookkeeping, not a change: the moved or deleted object's
    // own event is what the trail shows.
    if (isStructureStream(recorded.streamId)) return;
    await sql.query({ ...insertAuditEvent, values: auditValues(recorded, auditSubjectOf(recorded)) });
  },
  sets: {
    // Rows are keyed by event id, and a run's are inserted in event order: any event joins a run.
    footprint: () => ({}),
    applyRun: (sql, events) => insertAuditRows(sql, events),
    // A row reads its object's organization, kind and path, and a move's the path it left: only a move
    // changes a path, so the rows of events that go alone wait for the next run until a move comes.
    defers: () => true,
    endsDeferral: (event) => event.type === 'PortalObjectMoved',
  },
};
