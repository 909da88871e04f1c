import { readFileSync } from 'node:fs';
import type { ReadModel } from '@portal/read-model-core';
import { sqlFileStatements } from '@portal/read-model-core';
import { insertAuditRows } from './audit-run.js';

/** `audit_events`: every event in order, with actor, organization and object (docs/audit.md). */
export const auditReadModel: ReadModel = {
  name: 'audit',
  version: 1,
  ddl: readFileSync(new URL('./schema.sql', import.meta.url), 'utf8'),
  readerDdl: sqlFileStatements(new URL('./reader-indexes.sql', import.meta.url)),
  // One row per event, by the run's statement with one event (audit-run.ts). A replayed event finds its
  // row by event id and changes nothing.
  apply: (sql, recorded) => insertAuditRows(sql, [recorded]),
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
