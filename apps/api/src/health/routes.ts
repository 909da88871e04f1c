import type { Router } from 'express';
import type { ApiDependencies } from '../dependencies.js';
import { apiRouter, route } from '../http/routes.js';
import { runReadinessChecks } from './readiness.js';

export function healthRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/health', {
    get: (_req, res) => {
      res.json({ status: 'ok' });
    },
  });
  route(router, '/health/ready', {
    get: async (req, res) => {
      const report = await runReadinessChecks(deps.readinessChecks, (name, error) => {
        req.log.warn({ err: error, check: name }, 'readiness check failed');
      });
      res.status(report.status === 'not-ready' ? 503 : 200).json(report);
    },
  });
  return router;
}
