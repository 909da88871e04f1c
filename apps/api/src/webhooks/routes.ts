import type { Router, Request, Response } from 'express';
import type { ApiDependencies } from '../dependencies.js';
import { apiRouter, route } from '../http/routes.js';
import {
  enableWebhook,
  getWebhook,
  listOrganizationWebhooks,
  listWebhookDeliveries,
  registerWebhook,
  removeWebhook,
  rotateWebhookSecret,
} from './webhook-handlers.js';

type Handler = (deps: ApiDependencies, req: Request, res: Response) => Promise<void>;

/** The organization's webhook endpoints and their deliveries (docs/webhooks.md); admins and owners. */
export function webhookRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  const bound = (handler: Handler) => (req: Request, res: Response) => handler(deps, req, res);
  route(router, '/api/v1/webhooks', { get: bound(listOrganizationWebhooks), post: bound(registerWebhook) });
  route(router, '/api/v1/webhooks/:id', { get: bound(getWebhook), delete: bound(removeWebhook) });
  route(router, '/api/v1/webhooks/:id/enable', { post: bound(enableWebhook) });
  route(router, '/api/v1/webhooks/:id/rotate-secret', { post: bound(rotateWebhookSecret) });
  route(router, '/api/v1/webhooks/:id/deliveries', { get: bound(listWebhookDeliveries) });
  return router;
}
