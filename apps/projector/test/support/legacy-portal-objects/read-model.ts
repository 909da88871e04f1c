import type { Projection, ReadModel } from '../../../src/projection.js';
import { portalProjection } from '../../../src/portal-projection.js';
import { asPortalObjectEvent } from '../../../src/read-models/portal-objects/events.js';
import { portalObjectsReadModel } from '../../../src/read-models/portal-objects/read-model.js';
import { applyLegacyPortalObjectEvent } from './handlers.js';

/** `portal_objects` through the handlers of before (event by event only). */
const legacyPortalObjectsReadModel: ReadModel = {
  name: portalObjectsReadModel.name,
  ddl: portalObjectsReadModel.ddl,
  async apply(sql, recorded) {
    const event = asPortalObjectEvent(recorded);
    if (event) await applyLegacyPortalObjectEvent(sql, event, recorded);
  },
};

/** The portal projection with the portal objects read model of before. */
export const legacyPortalProjection: Projection = {
  ...portalProjection,
  readModels: portalProjection.readModels.map((readModel) =>
    readModel === portalObjectsReadModel ? legacyPortalObjectsReadModel : readModel,
  ),
};
