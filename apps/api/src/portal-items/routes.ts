import type { Router } from 'express';
import { portalItemListQuerySchema } from '@portal/contracts';
import { idParamsSchema } from '../http/params.js';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { requireFound } from '@portal/commands';
import { baseUrlOf } from '../http/base-url.js';
import { etagOf } from '../http/consistency.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { findVisibleObject } from '@portal/read-model-portal-objects';
import { accessRoutes } from '../access/routes.js';
import { asksForThePast, portalItemAsOf } from '../history/routes.js';
import { deletePortalItem, movePortalItem, updatePortalItem } from './change-portal-item.js';
import { listPage } from '../http/list-page.js';
import { listPortalObjects } from './list-portal-items.js';
import { portalItemRecord, portalItemRecords } from './portal-item-record.js';

export function portalItemRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/portal/items/', {
    get: async (req, res) => {
      const query = parseInput(portalItemListQuerySchema, req.query, 'query');
      const principals = principalsOf(req);
      const { rows, next } = await listPortalObjects(deps.pool, query, principals);
      const items = await portalItemRecords(deps.pool, rows, baseUrlOf(req, deps.config), principals);
      res.json(listPage(req, deps.config, { items, next }));
    },
  });
  route(router, '/api/v1/portal/items/:id', {
    get: async (req, res) => {
      // `?asOf=`: the object as it was, rebuilt from its events (docs/history.md).
      if (asksForThePast(req)) return portalItemAsOf(deps, req, res);
      const { id } = parseInput(idParamsSchema, req.params, 'path');
      const principals = principalsOf(req);
      const row = requireFound(await findVisibleObject(deps.pool, id, principals), `portal item ${id}`);
      res.setHeader('ETag', etagOf(BigInt(row.version)));
      res.json(await portalItemRecord(deps.pool, row, baseUrlOf(req, deps.config), principals));
    },
    patch: updatePortalItem(deps),
    delete: deletePortalItem(deps),
  });
  route(router, '/api/v1/portal/items/:id/move', { post: movePortalItem(deps) });
  router.use(accessRoutes(deps));
  return router;
}
