import type { Router } from 'express';
import { idParamsSchema } from '../http/params.js';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { requireFound } from '@portal/commands';
import { baseUrlOf } from '../http/base-url.js';
import { etagOf } from '../http/consistency.js';
import { idempotency } from '../http/idempotency.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { findVisibleObject } from '@portal/read-model-portal-objects';
import { collectionRecord } from './collection-record.js';
import { createCollection } from './create-collection.js';

export function collectionRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/portal/collections/create', {
    post: [idempotency(deps.pool), createCollection(deps)],
  });
  route(router, '/api/v1/collections/:id', {
    get: async (req, res) => {
      const { id } = parseInput(idParamsSchema, req.params, 'path');
      const row = requireFound(
        await findVisibleObject(deps.pool, id, principalsOf(req), 'collection'),
        `collection ${id}`,
      );
      res.setHeader('ETag', etagOf(BigInt(row.version)));
      res.json(collectionRecord(row, baseUrlOf(req, deps.config)));
    },
  });
  return router;
}
