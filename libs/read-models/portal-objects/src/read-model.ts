import { readFileSync } from 'node:fs';
import type { ReadModel } from '@portal/read-model-core';
import { sqlFileStatements } from '@portal/read-model-core';
import { asPortalObjectEvent } from './events.js';
import { applyPortalObjectEvent } from './handlers.js';
import { applyPortalObjectRun } from './run.js';
import { portalObjectBatchFootprints } from './batch-footprints.js';
import { portalObjectFootprint } from './run-footprint.js';
import { renderStaleStacItems } from './stale-stac-items.js';
import { statementFunctionsDdl } from './statement-functions.js';

/** `portal_objects`: every catalog, collection and item with its place in the tree, and each item's upload and assets. */
export const portalObjectsReadModel: ReadModel = {
  name: 'portal-objects',
  // 2: the columns added in place over time folded into the CREATE TABLE statement.
  // 3: each item's STAC JSON stored (`stac_item`), kept by a trigger and `finishBatch`.
  // 4: `portal_objects_with_rows_below`, which a batch's footprints call.
  // 5: `stac_id`, the id a STAC client gave an item (in its stored JSON too).
  // 6: the stored JSON's `alternate` link to the portal item.
  // 7: a collection's STAC name (`stac_id` of collections), by which its items' JSON names it.
  version: 7,
  // The tables, then the statements kept as functions (they name the tables, so they come after).
  ddl: [readFileSync(new URL('./schema.sql', import.meta.url), 'utf8'), statementFunctionsDdl()].join('\n'),
  readerDdl: sqlFileStatements(new URL('./reader-indexes.sql', import.meta.url)),
  async apply(sql, recorded, context) {
    const event = asPortalObjectEvent(recorded);
    if (!event) {
      context.log.debug(
        { eventId: recorded.id, type: recorded.type },
        'event type not projected into portal_objects',
      );
      return;
    }
    await applyPortalObjectEvent(sql, event, recorded);
  },
  // After every batch, before it commits: the items it changed get their text back.
  finishBatch: (sql) => renderStaleStacItems(sql),
  sets: {
    footprint: portalObjectFootprint,
    batchFootprints: portalObjectBatchFootprints,
    applyRun: (sql, events) => applyPortalObjectRun(sql, events),
  },
};
