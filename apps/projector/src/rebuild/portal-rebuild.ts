import type { Config, Logger } from '@portal/platform';
import { PORTAL_PROJECTION_CHANNEL, portalProjection } from '../portal-projection.js';
import type { ProjectorConfig } from '../projector-config.js';
import type { ProjectorResources } from '../resources.js';
import type { RebuildOptions } from './rebuild-read-schema.js';

/**
 * The rebuild of the portal's live read schema as the configuration names it, with the operator's skips:
 * what `npm run rebuild -w apps/projector` and the admin console's `rebuild` run.
 */
export function portalRebuildOptions(
  config: Config,
  projectorConfig: ProjectorConfig,
  resources: Pick<ProjectorResources, 'pool' | 'store'>,
  log: Logger,
): RebuildOptions {
  return {
    pool: resources.pool,
    store: resources.store,
    projection: portalProjection,
    schema: projectorConfig.PROJECTOR_READ_SCHEMA,
    operationsSchema: projectorConfig.PROJECTOR_OPERATIONS_SCHEMA,
    notifyChannel: PORTAL_PROJECTION_CHANNEL,
    batchSize: config.PROJECTOR_BATCH_SIZE,
    indexBuildMemory: projectorConfig.PROJECTOR_REBUILD_INDEX_MEMORY,
    replay: projectorConfig.PROJECTOR_REBUILD_MODE,
    log,
  };
}
