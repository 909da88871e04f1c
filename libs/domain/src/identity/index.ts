export * from './events.js';
export * from './organization-commands.js';
export * from './organization-state.js';
export * from './organization-decider.js';
export * from './webhook-decider.js';
export * from './user-decider.js';
export { mayInviteAs, roleNeededToInvite } from './member-role.js';
