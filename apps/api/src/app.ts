import cookieParser from 'cookie-parser';
import express, { type Express } from 'express';
import { BULK_PATH } from '@portal/contracts';
import type { ApiDependencies } from './dependencies.js';
import { auditRoutes } from './audit/routes.js';
import { authenticate } from './auth/authenticate.js';
import { cachePolicy } from './auth/cache-policy.js';
import { cors } from './auth/cors.js';
import { csrfProtection } from './auth/csrf.js';
import { authRoutes } from './auth/routes.js';
import { userRoutes } from './auth/user-routes.js';
import { browserRoutes } from './browser/routes.js';
import { bulkRoutes } from './bulk/routes.js';
import { catalogRoutes } from './catalogs/routes.js';
import { collectionRoutes } from './collections/routes.js';
import { eventRoutes } from './events/routes.js';
import { healthRoutes } from './health/routes.js';
import { historyRoutes } from './history/routes.js';
import { inventoryRoutes } from './inventory/routes.js';
import { minPositionGate } from './http/consistency.js';
import { onlyUnder } from './http/path-gate.js';
import { errorMiddleware } from './http/error-middleware.js';
import { jsonBody } from './http/json-body.js';
import { localMetrics, localMetricsEnabled } from './http/local-metrics.js';
import { HttpProblem } from './http/problem.js';
import { requestLogging } from './http/request-logging.js';
import { requestMetrics } from './http/request-metrics.js';
import { requestTracing } from './http/request-tracing.js';
import { itemRoutes } from './items/routes.js';
import { portalItemRoutes } from './portal-items/routes.js';
import { serviceRoutes } from './service/routes.js';
import { stacRoutes } from './stac/routes.js';
import { STAC_PATH } from './stac/stac-links.js';
import { WEB_APP_BASE, webAppRoutes } from './web-app/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

export function createApp(deps: ApiDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag hashed over every body: a STAC page is 100–200 KB, and SHA-1 over each one was CPU spent on
  // every request for a validator no client of ours sends back. Objects carry their revision as `ETag`
  // (set by their routes, and `If-None-Match` with it still answers 304); lists and searches carry none.
  app.set('etag', false);
  // Whether `X-Forwarded-For`/`-Proto` count: the client address of sign-in limits, `Secure` cookies.
  app.set('trust proxy', deps.config.TRUST_PROXY);
  // A newcomer's `curl localhost:3000/metrics`, outside production and to local requests only; first,
  // so a scrape is neither traced, logged nor counted. Prometheus scrapes METRICS_PORT (main.ts).
  if (deps.metrics && localMetricsEnabled(deps.config)) app.use(localMetrics(deps.metrics, deps.logger));
  // Then the span, so everything the request does (and logs) is inside it; a no-op while tracing is off.
  app.use(requestTracing());
  // Next, so a request's time includes every middleware.
  if (deps.metrics) app.use(requestMetrics(deps.metrics));
  app.use(requestLogging(deps.logger));
  // Every answer is JSON (or a redirect, or an event stream): never let a browser guess another type.
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  // The web explorer's static files, before credentials are looked at (web-app/routes.ts says why). It
  // and the bulk router are asked only for their own paths: walking their routes cost every other
  // request 20-40 µs in a minimal app, within noise in the whole API (bench/README.md, "STAC pages: two
  // more routers gated, and what the rest of a page costs").
  app.use(onlyUnder(WEB_APP_BASE, webAppRoutes(deps.config)));
  app.use(cors(deps.config));
  app.use(cookieParser());
  // Before authentication, so a 401 for a bad credential carries the policy too.
  app.use(cachePolicy);
  app.use(authenticate(deps));
  app.use(csrfProtection(deps.config));
  // Before the JSON body parser: an NDJSON bulk body is read as a stream, line by line, never whole.
  app.use(onlyUnder(BULK_PATH, bulkRoutes(deps)));
  app.use(jsonBody(deps.config.BODY_LIMIT_BYTES));
  app.use(minPositionGate(deps.projection, deps.eventStore, deps.config.PROJECTION_WAIT_MS));

  // First of the routers, for its requests only: a STAC page is the cheapest read there is, and walking
  // the other routers' every route before it was a measurable part of its cost (bench/README.md). No
  // other router answers a path under it.
  app.use(onlyUnder(STAC_PATH, stacRoutes(deps)));
  app.use(healthRoutes(deps));
  app.use(authRoutes(deps));
  app.use(userRoutes(deps));
  app.use(serviceRoutes(deps));
  app.use(catalogRoutes(deps));
  app.use(collectionRoutes(deps));
  app.use(browserRoutes(deps));
  app.use(inventoryRoutes(deps));
  // Before the portal item routes, so `items/create` is not read as an item id.
  app.use(itemRoutes(deps));
  app.use(portalItemRoutes(deps));
  app.use(webhookRoutes(deps));
  app.use(historyRoutes(deps));
  app.use(eventRoutes(deps));
  app.use(auditRoutes(deps));

  app.use((req, _res, next) => {
    next(new HttpProblem(404, `no route for ${req.method} ${req.path}`, 'ROUTE_NOT_FOUND'));
  });
  app.use(errorMiddleware);
  return app;
}
