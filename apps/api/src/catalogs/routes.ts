import type { Router } from 'express';
import { listCatalogsQuerySchema } from '@portal/contracts';
import { idParamsSchema } from '../http/params.js';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { idempotency } from '../http/idempotency.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { requireFound } from '@portal/commands';
import { listPage } from '../http/list-page.js';
import { createCatalog } from './create-catalog.js';
import { deleteCatalogs } from './delete-catalogs.js';
import { getCatalog, listCatalogs } from './catalog-queries.js';

export function catalogRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/portal/catalogs/create', { post: [idempotency(deps.pool), createCatalog(deps)] });
  route(router, '/api/v1/portal/catalogs/', {
    get: async (req, res) => {
      const query = parseInput(listCatalogsQuerySchema, req.query, 'query');
      const page = await listCatalogs(deps.pool, query, principalsOf(req));
      res.json(listPage(req, deps.config, page));
    },
    delete: deleteCatalogs(deps),
  });
  route(router, '/api/v1/portal/catalogs/:id', {
    get: async (req, res) => {
      const { id } = parseInput(idParamsSchema, req.params, 'path');
      res.json(requireFound(await getCatalog(deps.pool, id, principalsOf(req)), `catalog ${id}`));
    },
  });
  return router;
}
