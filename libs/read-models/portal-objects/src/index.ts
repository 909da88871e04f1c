export { portalObjectsReadModel } from './read-model.js';
export { derivesFrom } from './slug-assignment.js';
export { recomputeSubtreeAccess } from './subtree-access.js';
