export * from './caller-role.js';
export * from './change-object.js';
export * from './command-context.js';
export * from './create-object.js';
export * from './delete-objects.js';
export * from './handler/index.js';
export * from './move-object.js';
export * from './object-permissions.js';
export * from './object-repository.js';
export * from './organizations.js';
export * from './tree-facts.js';
export * from './stac-item-ids.js';
export * from './stac-collection-ids.js';
export * from './chosen-ids.js';
export {
  runStructureChange,
  type ObjectDecision,
  type StructureResult,
} from './structure/run-structure-change.js';
export * from './bulk/index.js';
