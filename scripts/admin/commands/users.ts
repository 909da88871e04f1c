import { formatPosition } from '@portal/domain';
import { disableAccount } from '../../../apps/api/src/auth/disable-account.js';
import { arg, defineCommand, stringOption } from '../cli/command.js';
import { usageFailure } from '../cli/failure.js';
import { operatorMetadata } from '../cli/operator.js';
import { commandHandling, userByEmail } from './identity.js';

const MAX_REASON_LENGTH = 500;

export const usersDisableCommand = defineCommand({
  path: ['users', 'disable'],
  positionals: ['email'],
  options: {
    reason: { type: 'string', value: 'text', description: 'why, recorded in the UserDisabled event' },
  },
  summary: 'lock an account out: no sign-in, its sessions, tokens and API keys stop working',
  details: [
    'Records DisableUser through the command handler (UserDisabled, with --reason and your name as',
    'metadata.operator). Right before, the account is marked disabled in auth.credentials and its',
    'sessions are revoked: sign-in answers that the account is disabled, and every session, JWT and',
    "API key of the user answers 401 from the next request on. Memberships, objects and the keys'",
    'rows stay as they are. A disabled account is left as it is (exit 0).',
  ].join('\n'),
  async run(context, input) {
    const reason = stringOption(input, 'reason')?.trim() ?? null;
    if (reason !== null && (reason === '' || reason.length > MAX_REASON_LENGTH)) {
      throw usageFailure(`users disable: --reason must be 1 to ${MAX_REASON_LENGTH} characters`);
    }
    const user = await userByEmail(context, arg(input, 'email'));
    const at = context.now();
    const result = await disableAccount(
      { handling: await commandHandling(context), pool: context.resources.pool },
      { userId: user.userId, reason, at, metadata: operatorMetadata(context.operator, null, at) },
    );
    const json = {
      userId: user.userId,
      email: user.email,
      disabled: true,
      alreadyDisabled: result.alreadyDisabled,
      reason,
      position: result.position && formatPosition(result.position),
    };
    const text = result.alreadyDisabled
      ? `${user.email} was already disabled; nothing recorded`
      : `${user.email} disabled${reason === null ? '' : ` (${reason})`}: sessions revoked, sign-in and API keys refused`;
    return { json, text };
  },
});
