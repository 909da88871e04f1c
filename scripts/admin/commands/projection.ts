import {
  PORTAL_PROJECTION_CHANNEL,
  portalProjection,
} from '../../../apps/projector/src/portal-projection.js';
import type { DeadLetterDesk } from '../../../apps/projector/src/dead-letters/resolve-dead-letter.js';
import { ensureOperationsSchema } from '../../../apps/projector/src/schemas.js';
import type { AdminContext } from '../cli/command.js';

/** The portal projection as the configuration places it: what `status` and `dead-letters` look at. */
export function projectionSource(context: AdminContext) {
  const { projectorConfig } = context.resources;
  return {
    pool: context.resources.pool,
    projection: portalProjection.name,
    schema: projectorConfig.PROJECTOR_READ_SCHEMA,
    operationsSchema: projectorConfig.PROJECTOR_OPERATIONS_SCHEMA,
  };
}

/**
 * Everything a dead-letter decision needs, with the operations schema brought up to date first: a
 * deployment from before the resolutions table gets it here (idempotent, as at the projector's start).
 */
export async function deadLetterDesk(context: AdminContext): Promise<DeadLetterDesk> {
  const source = projectionSource(context);
  await ensureOperationsSchema(source.pool, { schema: source.operationsSchema });
  return {
    pool: source.pool,
    store: await context.resources.store(),
    projection: portalProjection,
    schema: source.schema,
    operationsSchema: source.operationsSchema,
    notifyChannel: PORTAL_PROJECTION_CHANNEL,
    log: context.resources.log,
  };
}
