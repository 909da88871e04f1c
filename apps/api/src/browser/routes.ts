import type { Router, ErrorRequestHandler, Request, RequestHandler } from 'express';
import { z } from 'zod';
import {
  browserChildrenQuerySchema,
  browserPathQuerySchema,
  browserRootQuerySchema,
  idSchema,
  type BrowserChildren,
  type BrowserChildrenQuery,
  type BrowserNode,
  type BrowserPathQuery,
} from '@portal/contracts';
import { callerOf, principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { HttpProblem } from '../http/problem.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { breadcrumbsOf } from './breadcrumbs.js';
import { findNode, listNodes, type NodePage } from './node-queries.js';
import { browserNode } from './node-rows.js';
import { nextPageLinks } from './page-links.js';
import { resolvePath, slugSegments } from './path-lookup.js';

const nodeParamsSchema = z.object({ nodeId: idSchema });
const pathParamsSchema = z.object({ path: z.array(z.string()) });

/** The node and one page of its children: what a tree explorer needs to render one level. */
function childrenView(
  deps: ApiDependencies,
  req: Request,
  node: BrowserNode,
  page: NodePage,
  query: BrowserChildrenQuery | BrowserPathQuery,
): BrowserChildren {
  const { limit, sort, order, kind, status } = query;
  return {
    node,
    items: page.rows.map((row) => browserNode(row, node.path)),
    next: page.next,
    // The path lookup's first page continues at the node's children endpoint, under the same prefix.
    links: nextPageLinks(
      req,
      deps.config,
      `${req.baseUrl}/nodes/${node.id}/children`,
      { limit, sort, order, kind, status },
      page.next,
    ),
  };
}

function rootHandler(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const query = parseInput(browserRootQuerySchema, req.query, 'query');
    // Root-level nodes in the explorer's order: kind (catalogs first), then title (docs/decisions.md, Browsing).
    const page = await listNodes(
      deps.pool,
      null,
      { ...query, sort: 'kind', order: 'asc' },
      principalsOf(req),
    );
    res.json({
      items: page.rows.map((row) => browserNode(row, '')),
      next: page.next,
      links: nextPageLinks(req, deps.config, `${req.baseUrl}${req.path}`, { limit: query.limit }, page.next),
    });
  };
}

function nodeNotFound(nodeId: string): HttpProblem {
  return new HttpProblem(404, `node ${nodeId} not found`, 'NOT_FOUND');
}

/** Express decodes path parameters itself; a malformed percent-escape must be the client's 400, not a 500. */
const malformedEscape: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  next(
    error instanceof URIError
      ? new HttpProblem(400, 'path: malformed percent-encoding', 'INVALID_PATH')
      : error,
  );
};

/** `root`, `nodes/:nodeId/children`, `nodes/:nodeId/breadcrumbs`, `path/*path`: mounted under each prefix. */
function nodeRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/root', { get: rootHandler(deps) });
  route(router, '/nodes/:nodeId/children', {
    get: async (req, res) => {
      const { nodeId } = parseInput(nodeParamsSchema, req.params, 'path');
      const query = parseInput(browserChildrenQuerySchema, req.query, 'query');
      const principals = principalsOf(req);
      // Independent reads: both in flight at once, one round trip for the client. Children of a node the
      // caller cannot see are never shown: the 404 below answers instead of the page.
      const [node, page] = await Promise.all([
        findNode(deps.pool, nodeId, principals),
        listNodes(deps.pool, nodeId, query, principals),
      ]);
      if (!node) throw nodeNotFound(nodeId);
      res.json(childrenView(deps, req, node, page, query));
    },
  });
  route(router, '/nodes/:nodeId/breadcrumbs', {
    get: async (req, res) => {
      const { nodeId } = parseInput(nodeParamsSchema, req.params, 'path');
      const items = await breadcrumbsOf(deps.pool, nodeId, principalsOf(req));
      if (!items) throw nodeNotFound(nodeId);
      res.json({ items });
    },
  });
  const byPath: RequestHandler = async (req, res) => {
    const { path } = parseInput(pathParamsSchema, { path: req.params.path ?? [] }, 'path');
    const slugs = slugSegments(path);
    const query = parseInput(browserPathQuerySchema, req.query, 'query');
    const principals = principalsOf(req);
    const node = await resolvePath(deps.pool, slugs, principals, callerOf(req).orgId);
    const page = await listNodes(deps.pool, node.id, query, principals);
    res.json(childrenView(deps, req, node, page, query));
  };
  // `path/` with nothing after it does not match the wildcard: answer the same 400 as an empty segment.
  route(router, '/path', { get: byPath });
  route(router, '/path/*path', { get: byPath });
  router.use(malformedEscape);
  return router;
}

/**
 * The portal browser (README, Browsing): served at `/api/v1/browser/…`, with `/browser/…` as an alias of the
 * same routes and `/api/v1/portal/browser/` as an alias of the root.
 */
export function browserRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  const nodes = nodeRoutes(deps);
  router.use('/api/v1/browser', nodes);
  router.use('/browser', nodes);
  route(router, '/api/v1/portal/browser/', { get: rootHandler(deps) });
  return router;
}
