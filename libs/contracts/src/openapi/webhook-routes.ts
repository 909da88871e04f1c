import { listQuerySchema } from '../common.js';
import {
  createdWebhookSchema,
  registerWebhookBodySchema,
  rotateWebhookSecretBodySchema,
  webhookDeliveryPageSchema,
  webhookListSchema,
  webhookSchema,
} from '../webhooks.js';
import type { z } from 'zod';
import type { Route } from './route.js';

const adminNote =
  "Admins and owners of the active organization (the session's, the JWT's `org`, the API key's own); others 403. An endpoint of another organization answers 404.";

/** Commands recorded in the organization's stream answer once projected, like every command. */
function organizationCommand(status: 200 | 201, description: string, schema: z.ZodType): Route['responses'] {
  return {
    [status]: { description, schema, headers: ['XEventPosition'] },
    202: {
      description: `${description} Answered to \`Prefer: respond-async\` before the change is projected.`,
      schema,
      headers: ['XEventPosition', 'PreferenceApplied'],
    },
  };
}

export const webhookRoutes: readonly Route[] = [
  {
    method: 'post',
    path: '/api/v1/webhooks',
    operationId: 'registerWebhook',
    summary: 'Register a webhook endpoint',
    description: `Events of the organization whose type is listed (or every event with \`["*"]\`) are POSTed to \`url\`, signed with \`X-Portal-Signature\` (docs/webhooks.md). The URL must be \`https://\` and every address its host resolves to public: loopback, private, link-local and reserved addresses answer 400 (unless the deployment allows them). The answer carries the signing \`secret\`, shown this once. Recorded as WebhookRegistered. ${adminNote}`,
    tag: 'webhooks',
    body: registerWebhookBodySchema,
    responses: organizationCommand(201, 'The endpoint and its secret.', createdWebhookSchema),
    errors: [400, 401, 403, 413, 415],
  },
  {
    method: 'get',
    path: '/api/v1/webhooks',
    operationId: 'listWebhooks',
    summary: "The organization's webhook endpoints",
    description: `Oldest first; never the secrets. ${adminNote}`,
    tag: 'webhooks',
    responses: { 200: { description: 'The endpoints.', schema: webhookListSchema } },
    errors: [401, 403],
  },
  {
    method: 'get',
    path: '/api/v1/webhooks/{id}',
    operationId: 'getWebhook',
    summary: 'A webhook endpoint',
    description: `Whether it is enabled, and why not. ${adminNote}`,
    tag: 'webhooks',
    pathParameters: ['WebhookId'],
    responses: { 200: { description: 'The endpoint.', schema: webhookSchema } },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'delete',
    path: '/api/v1/webhooks/{id}',
    operationId: 'removeWebhook',
    summary: 'Remove a webhook endpoint',
    description: `No delivery is sent to it from now on. Recorded as WebhookRemoved. ${adminNote}`,
    tag: 'webhooks',
    pathParameters: ['WebhookId'],
    responses: organizationCommand(200, 'The removed endpoint.', webhookSchema),
    errors: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: '/api/v1/webhooks/{id}/enable',
    operationId: 'enableWebhook',
    summary: 'Enable a disabled webhook endpoint',
    description: `Deliveries resume with the events after this moment; the failure count starts again. Events of the time it was disabled are not sent. Recorded as WebhookEnabled. ${adminNote}`,
    tag: 'webhooks',
    pathParameters: ['WebhookId'],
    responses: organizationCommand(200, 'The enabled endpoint.', webhookSchema),
    errors: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: '/api/v1/webhooks/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook endpoint's signing secret",
    description: `Deliveries are signed with a new secret from now on, shown this once in the answer. The previous secret still signs them too for \`gracePeriodSeconds\` (default \`WEBHOOK_SECRET_GRACE_SECONDS\`, a day): \`X-Portal-Signature\` then carries two \`v1=\` signatures, the new secret's first, so a receiver can switch secrets without missing a delivery. A rotation within the grace period of another drops the oldest secret. The body may be empty. Recorded as WebhookSecretRotated. ${adminNote}`,
    tag: 'webhooks',
    pathParameters: ['WebhookId'],
    body: rotateWebhookSecretBodySchema,
    responses: organizationCommand(200, 'The endpoint and its new secret.', createdWebhookSchema),
    errors: [400, 401, 403, 404, 413, 415],
  },
  {
    method: 'get',
    path: '/api/v1/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "A webhook endpoint's delivery attempts",
    description: `Every attempt, newest first: the event, the attempt number, when, the receiver's status or the error, and how long it took. ${adminNote}`,
    tag: 'webhooks',
    pathParameters: ['WebhookId'],
    query: listQuerySchema,
    responses: { 200: { description: 'A page of attempts.', schema: webhookDeliveryPageSchema } },
    errors: [400, 401, 403, 404],
  },
];
