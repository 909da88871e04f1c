import { historyPageSchema, historyQuerySchema } from '../history.js';
import type { Route } from './route.js';

/** Audit of one object (docs/history.md); the `asOf` of `GET /api/v1/portal/items/{id}` is in portal-routes. */
export const historyRoutes: readonly Route[] = [
  {
    method: 'get',
    path: '/api/v1/portal/items/{id}/history',
    operationId: 'getPortalItemHistory',
    summary: "List a portal object's history",
    description:
      "Every event of the object's own stream, oldest first, read from the event store (a change is listed as soon as it is recorded): its type, revision, global position, time, actor (id and today's display name) and what it changed — for an update each changed field before and after. Needs read access to the object, checked against the event store; an object the caller cannot see answers 404 like an unknown id. A deleted object's history stays readable to whoever could read it. The cursor is revision-based: it stays valid for as long as the object exists.",
    tag: 'items',
    pathParameters: ['PortalObjectId'],
    query: historyQuerySchema,
    responses: { 200: { description: 'A page of the history.', schema: historyPageSchema } },
    errors: [400, 401, 404, 503],
  },
];
