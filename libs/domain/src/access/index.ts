export * from './roles.js';
export * from './object-access.js';
export * from './principals.js';
export * from './decisions.js';
export * from './role-permissions.js';
