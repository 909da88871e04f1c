export * from './ast.js';
export { Cql2Error } from './errors.js';
export type { Cql2Position } from './errors.js';
export * from './limits.js';
export { parseCql2Text } from './parse-text.js';
export { parseCql2Json } from './parse-json.js';
export { printCql2Text } from './print-text.js';
export { printCql2Json } from './print-json.js';
