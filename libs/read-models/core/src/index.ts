export {
  commitBatchTransaction,
  compareAndSetCheckpoint,
  initCheckpoint,
  lockCheckpoint,
  openBatchTransaction,
  projectionCheckpointsDdl,
  readCheckpoint,
} from './checkpoints/checkpoints.js';
export {
  signalsRaised,
  type Footprint,
  type FootprintOf,
  type HandlerContext,
  type Projection,
  type ProjectionSignal,
  type ReadModel,
  type SetHandler,
  type Sql,
} from './projection.js';
export { QueryParams } from './query-params.js';
export { quoteIdentifier } from './sql-identifier.js';
export { sqlFileStatements, statementLabel } from './sql-statements.js';
export { PORTAL_CHECKPOINT_NAME, PORTAL_PROJECTION_CHANNEL, READ_SCHEMA } from './names.js';
