export { portalObjectsReadModel } from './read-model.js';
export { derivesFrom } from './slug-assignment.js';
export { NO_SIBLING_GROUP, siblingGroupOf, siblingGroupSql } from './sibling-group.js';
export { batchPlacementsStatement, followPlacements, type Placement } from './batch-footprints.js';
export { recomputeSubtreeAccess } from './subtree-access.js';
// The leaf moves of a run, and the single move they must leave the rows of (their test compares them).
export { applyLeafMovesInRun } from './run-moves.js';
export { applyMove } from './move-statement.js';
// The set statements of a run's renames and leaf deletes (runs.ts decides which may share a run).
export { applyRenamesInRun } from './run-renames.js';
export { applyLeafDeletesInRun } from './run-deletes.js';
// Tests build schemas whose subtree statements all take one way, to compare the ways.
export { statementFunctionsDdl } from './statement-functions.js';
export { keyedSubtreeLimit } from './statement-function.js';
export * from './visibility.js';
export * from './portal-object-rows.js';
export * from './collection-keys.js';
export * from './upload-rows.js';
export * from './asset-rows.js';
export * from './reader-rows.js';
// What a rebuild that folds the history in memory needs to write the rows the handlers would.
export { asPortalObjectEvent } from './events.js';
export { endingStatuses, statusChangeOf, type StatusEvent } from './item-handlers.js';
export { itemColumns, newObjectRow, type CreateEvent } from './new-object-row.js';
// An item's STAC JSON: built by the API per request, stored by the projector (docs/stac.md).
export * from './stac-item.js';
export * from './stac-urls.js';
export { itemRowColumns } from './item-row-columns.js';
export { baseUrlFiller, storedStacItemText, withBaseUrl, UNSTORABLE_ITEM } from './stored-stac-item.js';
export { jsonbOf } from './created-stac-item.js';
export { zonedInstantMicros } from './zoned-timestamp.js';
