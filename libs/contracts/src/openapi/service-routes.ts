import { batchRequestSchema, batchResponseSchema } from '../batch.js';
import { BULK_PATH, bulkLineSchema, NDJSON_MEDIA_TYPE } from '../bulk.js';
import { schemaRef } from './schemas.js';
import { healthSchema, readinessSchema, serviceDescriptionSchema } from '../service.js';
import type { Route } from './route.js';

export const serviceRoutes: readonly Route[] = [
  {
    method: 'get',
    path: '/',
    operationId: 'describeService',
    summary: 'Describe the service',
    description:
      'Links to the OpenAPI document, the browser root and health. A client that prefers `text/html` to JSON (a browser) is redirected to the web explorer at `/app/`.',
    tag: 'service',
    public: true,
    responses: {
      200: { description: 'The service description.', schema: serviceDescriptionSchema },
      302: {
        description: 'To the web explorer, for a client asking for `text/html`.',
        headers: ['Location'],
      },
    },
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
    method: 'post',
    path: BULK_PATH,
    operationId: 'runBulk',
    summary: 'Load many commands as NDJSON',
    description:
      'For pipelines: one command per line (`application/x-ndjson`, UTF-8, gzip allowed), up to 1,000,000 lines and 1 MiB per line. Lines are applied in chunks as they arrive, and one result line per command is streamed back as soon as its chunk is applied (its `id`, or its refusal `{ line, status, code, message }`); a bad line never stops the others. The last line is the summary. Each line may carry its own `idempotencyKey`; `Idempotency-Key` on the request is refused. Each command needs the rights its single endpoint needs. See docs/bulk-ingest.md.',
    tag: 'service',
    headers: ['Prefer'],
    body: bulkLineSchema,
    bodyMediaType: NDJSON_MEDIA_TYPE,
    responses: {
      200: {
        description:
          'Streamed: one result line per non-blank request line, in request order, then the summary (which waits for the projection unless `Prefer: respond-async`).',
        otherMediaTypes: { [NDJSON_MEDIA_TYPE]: { schema: { $ref: schemaRef('BulkResponseLine') } } },
      },
    },
    errors: [400, 401, 413, 415],
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
    responses: {
      200: {
        description:
          'The OpenAPI document, generated from `libs/contracts`: `application/vnd.oai.openapi+json;version=3.1` to a client that asks for that type, else `application/json`.',
      },
    },
    errors: [],
  },
  {
    method: 'get',
    path: '/api/v1/docs',
    operationId: 'getApiReferencePage',
    summary: 'This document as an HTML page',
    description:
      "Every operation under its tag, with its parameters and answers, rendered from this document (the STAC API's `service-doc`).",
    tag: 'service',
    public: true,
    responses: { 200: { description: 'A `text/html` page that loads nothing from elsewhere.' } },
    errors: [],
  },
];
