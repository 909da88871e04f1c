import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { EVENT_SCHEMA_VERSION, type EventMetadata } from '@portal/domain';
import { SAFE_REQUEST_ID } from '../http/request-logging.js';

/** Who caused the events of this request. Actors and organizations arrive with the identity issue. */
export function metadataOf(req: Request, now: () => Date): EventMetadata {
  // pino-http's genReqId (request-logging.ts) always assigns a string id.
  const requestId = typeof req.id === 'string' ? req.id : null;
  const correlation = req.header('x-correlation-id');
  return {
    actorId: null,
    orgId: null,
    correlationId:
      correlation && SAFE_REQUEST_ID.test(correlation) ? correlation : (requestId ?? randomUUID()),
    causationId: null,
    requestId,
    occurredAt: now().toISOString(),
    schemaVersion: EVENT_SCHEMA_VERSION,
  };
}
