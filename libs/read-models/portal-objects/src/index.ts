export { portalObjectsReadModel } from './read-model.js';
export { derivesFrom } from './slug-assignment.js';
export { recomputeSubtreeAccess } from './subtree-access.js';
export * from './visibility.js';
export * from './portal-object-rows.js';
export * from './upload-rows.js';
export * from './asset-rows.js';
