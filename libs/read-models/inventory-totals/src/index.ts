export { inventoryTotalsReadModel } from './read-model.js';
