export { portalObjectsReadModel } from './read-model.js';
export { derivesFrom } from './slug-assignment.js';
export { recomputeSubtreeAccess } from './subtree-access.js';
export * from './visibility.js';
export * from './portal-object-rows.js';
export * from './upload-rows.js';
export * from './asset-rows.js';
export * from './reader-rows.js';
// What a rebuild that folds the history in memory needs to write the rows the handlers would.
export { asPortalObjectEvent } from './events.js';
export { endingStatuses, statusChangeOf, type StatusEvent } from './item-handlers.js';
export { itemColumns, newObjectRow, type CreateEvent } from './new-object-row.js';
