import { IDENTITY_CHANGED_CHANNEL } from '@portal/platform';
import type { Projection } from './projection.js';
import { auditReadModel } from './read-models/audit/read-model.js';
import { asIdentityEvent } from './read-models/identity/events.js';
import { identityReadModel } from './read-models/identity/read-model.js';
import { inventoryTotalsReadModel } from './read-models/inventory-totals/read-model.js';
import { portalObjectsReadModel } from './read-models/portal-objects/read-model.js';

/** The one projection of the portal: its read models share a subscription and the `portal` checkpoint. */
export const portalProjection: Projection = {
  name: 'portal',
  // The audit model last: it reads the object rows the others just wrote.
  readModels: [portalObjectsReadModel, inventoryTotalsReadModel, identityReadModel, auditReadModel],
  // Roles, memberships and keys decide who a credential is: API processes that keep answers drop them.
  signals: [{ channel: IDENTITY_CHANGED_CHANNEL, raisedBy: (event) => asIdentityEvent(event) !== null }],
};

/** The API LISTENs here; the payload is the new checkpoint as `formatPosition` writes it. */
export const PORTAL_PROJECTION_CHANNEL = 'portal_projection';
