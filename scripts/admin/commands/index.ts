import type { AdminCommand } from '../cli/command.js';
import { deadLettersListCommand, deadLettersRetryCommand, deadLettersSkipCommand } from './dead-letters.js';
import { orgsCreateCommand, orgsMakeOwnerCommand } from './orgs.js';
import { rebuildCommand } from './rebuild.js';
import { statusCommand } from './status.js';
import { uploadsListCommand, uploadsRequeueCommand, uploadsShowCommand } from './uploads.js';
import { usersDisableCommand } from './users.js';
import { webhooksEnableCommand, webhooksListCommand } from './webhooks.js';

/** Every command of the console, in the order `--help` lists them. */
export const adminCommands: readonly AdminCommand[] = [
  statusCommand,
  deadLettersListCommand,
  deadLettersRetryCommand,
  deadLettersSkipCommand,
  rebuildCommand,
  uploadsListCommand,
  uploadsShowCommand,
  uploadsRequeueCommand,
  orgsCreateCommand,
  orgsMakeOwnerCommand,
  usersDisableCommand,
  webhooksListCommand,
  webhooksEnableCommand,
];
