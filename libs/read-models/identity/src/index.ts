export { asIdentityEvent } from './events.js';
export { identityReadModel } from './read-model.js';
