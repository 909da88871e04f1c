import {
  breadcrumbsSchema,
  browserChildrenQuerySchema,
  browserChildrenSchema,
  browserNodePageSchema,
  browserPathQuerySchema,
  browserRootQuerySchema,
} from '../browser.js';
import { inventoryPageSchema, inventoryQuerySchema } from '../inventory.js';
import type { ErrorStatus, Route } from './route.js';

const listErrors: readonly ErrorStatus[] = [400, 401, 503];
const nodeErrors: readonly ErrorStatus[] = [400, 401, 404, 503];

const visibleNote = 'Only live objects the caller may see; deleted ones never appear.';
const cursorNote =
  'A cursor continues the sort and order it was issued for; with another `sort` or `order` it answers 400.';

function rootRoute(path: string, operationId: string, aliasOf?: string): Route {
  return {
    method: 'get',
    path,
    operationId,
    summary: 'Root of the portal browser',
    description: [
      'The root-level nodes, sorted by kind (catalogs, collections, items), then title, then id; in pages.',
      visibleNote,
      ...(aliasOf === undefined ? [] : [`Alias of \`${aliasOf}\`.`]),
    ].join(' '),
    tag: 'browser',
    query: browserRootQuerySchema,
    headers: ['XMinPosition'],
    responses: { 200: { description: 'A page of root-level nodes.', schema: browserNodePageSchema } },
    errors: listErrors,
  };
}

/** The node family under `prefix`; `/browser/…` repeats `/api/v1/browser/…` as the contract lists both. */
function nodeRoutes(prefix: string, operationPrefix: string, aliasOf?: string): Route[] {
  const alias = aliasOf === undefined ? '' : ` Alias of \`${aliasOf}\`.`;
  return [
    {
      method: 'get',
      path: `${prefix}/nodes/{nodeId}/children`,
      operationId: `${operationPrefix}Children`,
      summary: 'Children of a browser node',
      description: `The node itself (\`node\`) and a page of its children, sortable and filterable. ${visibleNote} ${cursorNote} An unknown or deleted node answers 404.${alias}`,
      tag: 'browser',
      pathParameters: ['NodeId'],
      query: browserChildrenQuerySchema,
      headers: ['XMinPosition'],
      responses: {
        200: { description: 'The node and a page of its children.', schema: browserChildrenSchema },
      },
      errors: nodeErrors,
    },
    {
      method: 'get',
      path: `${prefix}/nodes/{nodeId}/breadcrumbs`,
      operationId: `${operationPrefix}Breadcrumbs`,
      summary: 'Breadcrumbs of a browser node',
      description: `The path from the root level down to the node itself, in one answer. An unknown or deleted node answers 404.${alias}`,
      tag: 'browser',
      pathParameters: ['NodeId'],
      headers: ['XMinPosition'],
      responses: { 200: { description: 'The breadcrumbs.', schema: breadcrumbsSchema } },
      errors: nodeErrors,
    },
    {
      method: 'get',
      path: `${prefix}/path/{path}`,
      operationId: `${operationPrefix}Path`,
      summary: 'Look a node up by its slug path',
      description: `Resolves slash-separated slugs from the root level (percent-encode anything outside ASCII; Unicode is compared in NFC) and answers the node with the first page of its children, shaped like the children answer; \`next\` continues at the children endpoint. A segment that names no live child answers 404 naming the first such segment; an empty segment, \`.\`, \`..\` or more segments than the tree's maximum depth answer 400.${alias}`,
      tag: 'browser',
      pathParameters: ['BrowserPath'],
      query: browserPathQuerySchema,
      headers: ['XMinPosition'],
      responses: {
        200: { description: 'The node at the path and its first children.', schema: browserChildrenSchema },
      },
      errors: nodeErrors,
    },
  ];
}

const inventoryRoute: Route = {
  method: 'get',
  path: '/api/v1/portal/inventory/',
  operationId: 'getInventory',
  summary: 'Inventory of the portal',
  description: `Every object the caller may see as one flat list, filterable and sortable, with totals per kind and status and the bytes of the matching items' assets (the totals cover every page). ${visibleNote} ${cursorNote}`,
  tag: 'items',
  query: inventoryQuerySchema,
  headers: ['XMinPosition'],
  responses: { 200: { description: 'A page of the inventory and its totals.', schema: inventoryPageSchema } },
  errors: listErrors,
};

export const browserRoutes: readonly Route[] = [
  rootRoute('/api/v1/browser/root', 'browserRoot'),
  ...nodeRoutes('/api/v1/browser', 'browser'),
  rootRoute('/api/v1/portal/browser/', 'portalBrowserRoot', '/api/v1/browser/root'),
  rootRoute('/browser/root', 'browserAliasRoot', '/api/v1/browser/root'),
  ...nodeRoutes('/browser', 'browserAlias', '/api/v1/browser/…'),
  inventoryRoute,
];
