import { batchRequestSchema, batchResponseSchema } from '../batch.js';
import { healthSchema, readinessSchema, serviceDescriptionSchema } from '../service.js';
import type { Route } from './route.js';

export const serviceRoutes: readonly Route[] = [
  {
    method: 'get',
    path: '/',
    operationId: 'describeService',
    summary: 'Describe the service',
    description: 'Links to the OpenAPI document, the browser root and health.',
    tag: 'service',
    public: true,
    responses: { 200: { description: 'The service description.', schema: serviceDescriptionSchema } },
    errors: [],
  },
  {
    method: 'post',
    path: '/',
    operationId: 'runBatch',
    summary: 'Run a batch of create commands',
    description:
      "For pipelines: runs the commands in order and answers one result per command; a failed command does not stop the others. A `createItem` command's result is the upload descriptor, as `POST /api/v1/portal/items/create` answers it.",
    tag: 'service',
    headers: ['IdempotencyKey', 'Prefer'],
    body: batchRequestSchema,
    responses: {
      200: {
        description: 'One result per command.',
        schema: batchResponseSchema,
        headers: ['XEventPosition'],
      },
      202: {
        description:
          'One result per command; answered to `Prefer: respond-async` before the changes are projected.',
        schema: batchResponseSchema,
        headers: ['XEventPosition', 'PreferenceApplied'],
      },
    },
    errors: [400, 401, 413, 415, 503],
  },
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Liveness',
    tag: 'service',
    public: true,
    responses: { 200: { description: 'The process is alive.', schema: healthSchema } },
    errors: [],
  },
  {
    method: 'get',
    path: '/health/ready',
    operationId: 'getReadiness',
    summary: 'Readiness',
    description:
      'Asks every dependency at once, each bounded in time. Critical: PostgreSQL and the event store; non-critical: Redis, S3 and the upload worker. `degraded` means the API still serves reads and catalog commands, so a load balancer should keep sending it traffic.',
    tag: 'service',
    public: true,
    responses: {
      200: {
        description:
          '`ready`: every dependency answers; or `degraded`: every critical one answers, some non-critical one does not.',
        schema: readinessSchema,
      },
      503: {
        description: '`not-ready`: PostgreSQL or the event store does not answer.',
        schema: readinessSchema,
      },
    },
    errors: [],
  },
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1.1 document',
    tag: 'service',
    public: true,
    responses: { 200: { description: 'The OpenAPI document, generated from `libs/contracts`.' } },
    errors: [],
  },
];
