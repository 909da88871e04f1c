export { asIdentityEvent } from './events.js';
export { identityReadModel } from './read-model.js';
export * from './identity-queries.js';
export type { InvitationRow } from './invitation-row.js';
