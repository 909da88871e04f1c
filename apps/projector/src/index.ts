export { readCheckpoint } from '@portal/read-model-core';
export { PORTAL_PROJECTION_CHANNEL, portalProjection } from './portal-projection.js';
export { ensureOperationsSchema, ensureReadSchema } from './schemas.js';
export { runProjector, leadershipName, type ProjectorOptions } from './run-projector.js';
export {
  ProjectionRunner,
  ProjectionHaltedError,
  DEFAULT_RETRY_DELAYS_MS,
  type RunnerOptions,
} from './runner.js';
export { rebuildReadSchema, type RebuildOptions, type RebuildResult } from './rebuild/rebuild-read-schema.js';
export type { StatementTime } from './rebuild/reader-ddl.js';
export { loadProjectorConfig } from './projector-config.js';
export type { Projection, ReadModel } from '@portal/read-model-core';
