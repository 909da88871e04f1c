import { handleCommand, type CommandHandling } from '@portal/commands';
import { userDecider, userStreamId, type EventMetadata, type Position } from '@portal/domain';
import { announceIdentityChange, type Pool } from '@portal/platform';

/** Marks the credentials disabled and ends every session: what authentication trusts (auth-schema.ts). */
async function lockOut(pool: Pool, userId: string, at: Date): Promise<void> {
  await pool.query(
    'UPDATE auth.credentials SET disabled_at = $2 WHERE user_id = $1 AND disabled_at IS NULL',
    [userId, at],
  );
  await pool.query('UPDATE auth.sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [
    userId,
    at,
  ]);
}

/**
 * Disables an account (the operator's `users disable`, docs/admin-cli.md): the credentials row is marked
 * and the user's sessions revoked right before UserDisabled is appended, and the mark is taken back if
 * that append fails (revoked sessions stay revoked: signing in again is all it costs). A user already
 * disabled decides no event; the row is marked all the same, so it always follows the stream.
 */
export async function disableAccount(
  deps: { readonly handling: CommandHandling; readonly pool: Pool },
  input: {
    readonly userId: string;
    readonly reason: string | null;
    readonly metadata: EventMetadata;
    readonly at: Date;
  },
): Promise<{ readonly alreadyDisabled: boolean; readonly position: Position | null }> {
  const { userId, reason, at } = input;
  const result = await handleCommand(deps.handling, {
    streamId: userStreamId(userId),
    decider: userDecider,
    command: { type: 'DisableUser', data: { userId, reason } },
    metadata: input.metadata,
    sideEffect: {
      apply: () => lockOut(deps.pool, userId, at),
      undo: async () => {
        await deps.pool.query(
          'UPDATE auth.credentials SET disabled_at = NULL WHERE user_id = $1 AND disabled_at = $2',
          [userId, at],
        );
      },
    },
  });
  if (result.events.length === 0) await lockOut(deps.pool, userId, at);
  // API processes drop the keys they kept now, not once UserDisabled is projected.
  await announceIdentityChange(deps.pool);
  return { alreadyDisabled: result.events.length === 0, position: result.position };
}
