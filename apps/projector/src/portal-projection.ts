import { IDENTITY_CHANGED_CHANNEL } from '@portal/platform';
import { auditReadModel } from '@portal/read-model-audit';
import { PORTAL_CHECKPOINT_NAME, PORTAL_PROJECTION_CHANNEL, type Projection } from '@portal/read-model-core';
import { asIdentityEvent, identityReadModel } from '@portal/read-model-identity';
import { inventoryTotalsReadModel } from '@portal/read-model-inventory-totals';
import { portalObjectsReadModel } from '@portal/read-model-portal-objects';

/** The one projection of the portal: its read models share a subscription and the `portal` checkpoint. */
export const portalProjection: Projection = {
  name: PORTAL_CHECKPOINT_NAME,
  // The audit model last: it reads the object rows the others just wrote.
  readModels: [portalObjectsReadModel, inventoryTotalsReadModel, identityReadModel, auditReadModel],
  // Roles, memberships and keys decide who a credential is: API processes that keep answers drop them.
  signals: [{ channel: IDENTITY_CHANGED_CHANNEL, raisedBy: (event) => asIdentityEvent(event) !== null }],
};

/** The API LISTENs here; the payload is the new checkpoint as `formatPosition` writes it. */
export { PORTAL_PROJECTION_CHANNEL };
