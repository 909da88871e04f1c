export * from './change-objects.js';
export * from './create-objects.js';
export { mapLimited } from './map-limited.js';
