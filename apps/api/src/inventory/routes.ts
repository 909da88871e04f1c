import type { Router } from 'express';
import { inventoryQuerySchema } from '@portal/contracts';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { nextPageLinks } from '../browser/page-links.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { inventoryPage } from './inventory-page.js';
import { inventoryTotals } from './inventory-totals.js';

export function inventoryRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/portal/inventory/', {
    get: async (req, res) => {
      const query = parseInput(inventoryQuerySchema, req.query, 'query');
      const principals = principalsOf(req);
      // Independent reads: the page and the totals are in flight at once.
      const [page, totals] = await Promise.all([
        inventoryPage(deps.pool, query, principals),
        inventoryTotals(deps.pool, query, principals),
      ]);
      const { limit, sort, order, kind, status, parentId, q, bbox } = query;
      res.json({
        items: page.items,
        next: page.next,
        links: nextPageLinks(
          req,
          deps.config,
          `${req.baseUrl}${req.path}`,
          { limit, sort, order, kind, status, parentId, q, bbox: bbox?.join(',') },
          page.next,
        ),
        totals,
      });
    },
  });
  return router;
}
