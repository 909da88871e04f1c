import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { EVENT_SCHEMA_VERSION, type EventMetadata } from '@portal/domain';
import { callerOf } from '../auth/caller.js';
import { SAFE_REQUEST_ID } from '../http/request-logging.js';

/**
 * Who caused the events of this request: the signed-in user (an API key acts as its creator) and the
 * organization they acted in, for the audit trail.
 */
export function metadataOf(req: Request, now: () => Date): EventMetadata {
  const caller = callerOf(req);
  // pino-http's genReqId (request-logging.ts) always assigns a string id.
  const requestId = typeof req.id === 'string' ? req.id : null;
  const correlation = req.header('x-correlation-id');
  return {
    actorId: caller.userId,
    orgId: caller.orgId,
    correlationId:
      correlation && SAFE_REQUEST_ID.test(correlation) ? correlation : (requestId ?? randomUUID()),
    causationId: null,
    requestId,
    occurredAt: now().toISOString(),
    schemaVersion: EVENT_SCHEMA_VERSION,
  };
}
