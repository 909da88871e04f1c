import { Router } from 'express';
import { idParamsSchema } from '../http/params.js';
import type { ApiDependencies } from '../dependencies.js';
import { requireFound } from '../commands/execute.js';
import { baseUrlOf } from '../http/base-url.js';
import { etagOf } from '../http/consistency.js';
import { route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { findLiveObject } from '../read-model/portal-object-rows.js';
import { deletePortalItem, movePortalItem, updatePortalItem } from './change-portal-item.js';
import { portalItemRecord } from './portal-item-record.js';

export function portalItemRoutes(deps: ApiDependencies): Router {
  const router = Router();
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
