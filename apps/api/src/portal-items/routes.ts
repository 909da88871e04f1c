import { Router } from 'express';
import { portalItemListQuerySchema } from '@portal/contracts';
import { idParamsSchema } from '../http/params.js';
import type { ApiDependencies } from '../dependencies.js';
import { requireFound } from '../commands/execute.js';
import { baseUrlOf } from '../http/base-url.js';
import { etagOf } from '../http/consistency.js';
import { route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { findLiveObject } from '../read-model/portal-object-rows.js';
import { deletePortalItem, movePortalItem, updatePortalItem } from './change-portal-item.js';
import { listPage } from '../http/list-page.js';
import { listPortalObjects } from './list-portal-items.js';
import { portalItemRecord, portalItemRecords } from './portal-item-record.js';

export function portalItemRoutes(deps: ApiDependencies): Router {
  const router = Router();
  route(router, '/api/v1/portal/items/', {
    get: async (req, res) => {
      const query = parseInput(portalItemListQuerySchema, req.query, 'query');
      const { rows, next } = await listPortalObjects(deps.pool, query);
      const items = await portalItemRecords(deps.pool, rows, baseUrlOf(req, deps.config));
      res.json(listPage(req, deps.config, { items, next }));
    },
  });
  route(router, '/api/v1/portal/items/:id', {
    get: async (req, res) => {
      const { id } = parseInput(idParamsSchema, req.params, 'path');
      const row = requireFound(await findLiveObject(deps.pool, id), `portal item ${id}`);
      res.setHeader('ETag', etagOf(BigInt(row.version)));
      res.json(await portalItemRecord(deps.pool, row, baseUrlOf(req, deps.config)));
    },
    patch: updatePortalItem(deps),
    delete: deletePortalItem(deps),
  });
  route(router, '/api/v1/portal/items/:id/move', { post: movePortalItem(deps) });
  return router;
}
