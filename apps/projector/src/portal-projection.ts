import type { Projection } from './projection.js';
import { identityReadModel } from './read-models/identity/read-model.js';
import { inventoryTotalsReadModel } from './read-models/inventory-totals/read-model.js';
import { portalObjectsReadModel } from './read-models/portal-objects/read-model.js';

/** The one projection of the portal: its read models share a subscription and the `portal` checkpoint. */
export const portalProjection: Projection = {
  name: 'portal',
  readModels: [portalObjectsReadModel, inventoryTotalsReadModel, identityReadModel],
};

/** The API LISTENs here; the payload is the new checkpoint as `formatPosition` writes it. */
export const PORTAL_PROJECTION_CHANNEL = 'portal_projection';
