import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { eventMetadata, type EventMetadata } from '@portal/domain';

/** Longer names are cut: the name lands in events and audit rows. */
const MAX_OPERATOR_LENGTH = 200;

/**
 * Who runs the console: `PORTAL_OPERATOR` when set (a name the team knows), else `<OS user>@<host>`.
 * Recorded with everything the console changes (event metadata, dead-letter resolutions).
 */
export function operatorName(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.PORTAL_OPERATOR?.trim();
  if (given) return given.slice(0, MAX_OPERATOR_LENGTH);
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container running under an arbitrary uid): the host still says where.
  }
  return `${user}@${hostname()}`.slice(0, MAX_OPERATOR_LENGTH);
}

/**
 * Metadata of the events one console command appends: no actor (an operator is no user), the
 * operator's name, and a correlation id of its own that ties the command's events together.
 */
export function operatorMetadata(operator: string, orgId: string | null, at: Date): EventMetadata {
  return eventMetadata({ actorId: null, orgId, correlationId: randomUUID(), requestId: null, at, operator });
}
