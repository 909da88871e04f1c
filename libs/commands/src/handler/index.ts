export * from './handle-command.js';
export * from './load-stream.js';
export * from './retry-policy.js';
export { requireRevision } from './expected-revision.js';
