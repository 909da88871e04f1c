import type { Pool } from './database.js';

/**
 * The channel that tells every API process that identity facts may have changed — a role, a membership,
 * a key, a disabled account — so what they keep of credentials must go (the API key cache, docs/identity.md).
 * The projector notifies it when a batch with an identity event commits; whoever changes the auth tables
 * directly (a key revocation, the operator's `users disable`) notifies it right after, so no process
 * answers from a key it kept until the event is projected.
 */
export const IDENTITY_CHANGED_CHANNEL = 'portal_identity_changed';

export async function announceIdentityChange(pool: Pool): Promise<void> {
  await pool.query('SELECT pg_notify($1, $2)', [IDENTITY_CHANGED_CHANNEL, '']);
}
