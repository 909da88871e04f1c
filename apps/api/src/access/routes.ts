import type { Router } from 'express';
import type { ApiDependencies } from '../dependencies.js';
import { apiRouter, route } from '../http/routes.js';
import { changeVisibility } from './change-visibility.js';
import { listShares, shareObject, unshareObject } from './shares.js';

/** Who may see and change a portal object: its visibility and its shares (docs/identity.md). */
export function accessRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/portal/items/:id/visibility', { put: changeVisibility(deps) });
  route(router, '/api/v1/portal/items/:id/shares', { get: listShares(deps), post: shareObject(deps) });
  route(router, '/api/v1/portal/items/:id/shares/:type/:principalId', { delete: unshareObject(deps) });
  return router;
}
