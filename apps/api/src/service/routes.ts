import type { Router } from 'express';
import { API_VERSION, buildOpenApiDocument } from '@portal/contracts';
import type { ApiDependencies } from '../dependencies.js';
import { baseUrlOf } from '../http/base-url.js';
import { idempotency } from '../http/idempotency.js';
import { apiRouter, route } from '../http/routes.js';
import { OPENAPI_TYPE } from '../stac/stac-links.js';
import { WEB_APP_BASE } from '../web-app/routes.js';
import { API_DOCS_CSP, renderApiDocsPage } from './api-docs-page.js';
import { runBatch } from './run-batch.js';

/** `GET /` tells a newcomer (or a client) where everything is; `/api/v1/openapi.json` the full contract. */
export function serviceRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  const openApiDocument = buildOpenApiDocument();
  route(router, '/', {
    get: (req, res) => {
      // A browser asking for a page gets the web explorer; JSON clients (and `*/*`) the description.
      if (req.accepts(['application/json', 'text/html']) === 'text/html') {
        res.redirect(302, `${WEB_APP_BASE}/`);
        return;
      }
      const base = baseUrlOf(req, deps.config);
      res.json({
        name: 'portal-catalog-service',
        version: API_VERSION,
        description: 'HTTP JSON API of a geospatial data portal: catalogs, collections and items.',
        links: [
          { rel: 'self', href: `${base}/`, type: 'application/json' },
          {
            rel: 'service-desc',
            href: `${base}/api/v1/openapi.json`,
            type: OPENAPI_TYPE,
          },
          { rel: 'service-doc', href: `${base}/api/v1/docs`, type: 'text/html' },
          { rel: 'browser-root', href: `${base}/api/v1/browser/root`, type: 'application/json' },
          // The STAC API's landing page: where a STAC client (pystac-client, STAC Browser) starts.
          { rel: 'data', href: `${base}/api/v1/stac`, type: 'application/json', title: 'STAC API' },
          { rel: 'catalogs', href: `${base}/api/v1/portal/catalogs/`, type: 'application/json' },
          { rel: 'health', href: `${base}/health`, type: 'application/json' },
          { rel: 'ready', href: `${base}/health/ready`, type: 'application/json' },
        ],
      });
    },
    post: [idempotency(deps.pool), runBatch(deps)],
  });
  const docsPage = renderApiDocsPage(openApiDocument);
  route(router, '/api/v1/docs', {
    get: (_req, res) => {
      res.set('Content-Security-Policy', API_DOCS_CSP);
      res.type('html').send(docsPage);
    },
  });
  route(router, '/api/v1/openapi.json', {
    get: (req, res) => {
      // Links name the document by its OpenAPI media type, and a client that asks for that type (the
      // STAC API validator sends the link's type as `Accept`) must get it back as the Content-Type;
      // browsers, curl and `*/*` get plain JSON.
      res.vary('Accept');
      if (req.accepts(['application/json', OPENAPI_TYPE]) === OPENAPI_TYPE) res.type(OPENAPI_TYPE);
      res.json(openApiDocument);
    },
  });
  return router;
}
