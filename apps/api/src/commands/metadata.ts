import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { eventMetadata, type EventMetadata } from '@portal/domain';
import { callerOf } from '../auth/caller.js';
import { SAFE_REQUEST_ID } from '../http/request-logging.js';

/**
 * Who caused the events of this request: the signed-in user (an API key acts as its creator) and the
 * organization they acted in, for the audit trail. `actor` names them explicitly where the request's
 * caller is not the actor yet (at sign-up, the user being created).
 */
export function metadataOf(
  req: Request,
  at: Date,
  actor: { readonly userId: string | null; readonly orgId: string | null } = callerOf(req),
): EventMetadata {
  // requestLogging (request-logging.ts) gives every request its id before any route runs.
  const requestId = typeof req.id === 'string' ? req.id : null;
  const correlation = req.header('x-correlation-id');
  return eventMetadata({
    actorId: actor.userId,
    orgId: actor.orgId,
    correlationId:
      correlation && SAFE_REQUEST_ID.test(correlation) ? correlation : (requestId ?? randomUUID()),
    requestId,
    at,
  });
}
