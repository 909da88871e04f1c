import { Router } from 'express';
import type { ApiDependencies } from '../dependencies.js';
import { route } from '../http/routes.js';
import { runReadinessChecks } from './readiness.js';

export function healthRoutes(deps: ApiDependencies): Router {
  const router = Router();
  route(router, '/health', {
    get: (_req, res) => {
      res.json({ status: 'ok' });
    },
  });
  route(router, '/health/ready', {
    get: async (_req, res) => {
      const report = await runReadinessChecks(deps.readinessChecks);
      res.status(report.status === 'not-ready' ? 503 : 200).json(report);
    },
  });
  return router;
}
