export * from './events.js';
export * from './operations.js';
