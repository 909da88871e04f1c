import { readFileSync } from 'node:fs';
import type { ReadModel } from '../../projection.js';
import { asPortalObjectEvent } from './events.js';
import { applyPortalObjectEvent } from './handlers.js';
import { applyPortalObjectRun } from './run.js';
import { portalObjectFootprint } from './run-footprint.js';

/** `portal_objects`: every catalog, collection and item with its place in the tree, and each item's upload and assets. */
export const portalObjectsReadModel: ReadModel = {
  name: 'portal-objects',
  ddl: readFileSync(new URL('./schema.sql', import.meta.url), 'utf8'),
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
  sets: {
    footprint: portalObjectFootprint,
    applyRun: (sql, events) => applyPortalObjectRun(sql, events),
  },
};
