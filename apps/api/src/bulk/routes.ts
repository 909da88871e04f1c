import type { Router } from 'express';
import { BULK_PATH } from '@portal/contracts';
import type { ApiDependencies } from '../dependencies.js';
import { apiRouter, route } from '../http/routes.js';
import { runBulk } from './run-bulk.js';

/** The NDJSON bulk endpoint; it reads its own body, as a stream (docs/bulk-ingest.md). */
export function bulkRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, BULK_PATH, { post: runBulk(deps) });
  return router;
}
