export { inventoryTotalsReadModel } from './read-model.js';
export type { BucketRow as InventoryBucketRow } from './rows.js';
