import { readFileSync } from 'node:fs';
import type { ReadModel } from '@portal/read-model-core';
import { sqlFileStatements } from '@portal/read-model-core';

/**
 * `inventory_totals`: live objects and asset bytes per set of read principals, kind and status. Its DDL
 * must run after `portal_objects`' (it puts triggers on that table and reads its access columns); the
 * triggers keep it, so there is nothing to do per event. Only readers need the totals: the triggers are
 * reader DDL, which a rebuild applies after its replay, filling the totals from the replayed rows.
 */
export const inventoryTotalsReadModel: ReadModel = {
  name: 'inventory-totals',
  version: 1,
  ddl: readFileSync(new URL('./schema.sql', import.meta.url), 'utf8'),
  readerDdl: sqlFileStatements(new URL('./triggers.sql', import.meta.url)),
  apply: () => Promise.resolve(),
  sets: { footprint: () => ({}), applyRun: () => Promise.resolve() },
};
