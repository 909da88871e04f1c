import { inventoryQuerySchema, type InventoryQuery } from '@portal/contracts';
import { anonymous, callerPrincipals } from '@portal/domain';
import type pg from 'pg';
import { breadcrumbsOf } from '../../apps/api/src/browser/breadcrumbs.js';
import { findNode, listNodes } from '../../apps/api/src/browser/node-queries.js';
import { resolvePath } from '../../apps/api/src/browser/path-lookup.js';
import { inventoryPage } from '../../apps/api/src/inventory/inventory-page.js';
import { inventoryTotals } from '../../apps/api/src/inventory/inventory-totals.js';
import type { Probe } from './closed-loop.js';
import { SEARCH_WORD, type TreeTargets } from './tree-generator.js';

/** One measured view: the HTTP request a frontend sends, and the same SQL sent by the API's own query code. */
export interface View {
  readonly name: string;
  readonly http: Probe;
  readonly sql: Probe;
}

export const BREADCRUMB_DEPTH = 20;
export const HTTP_FLOOR_VIEW = 'HTTP floor: GET /health (no query) / SELECT 1';
export const PATH_DEPTH = 10;
export const CHILDREN_PAGE = 100;
/** The SQL probes read as the HTTP probes do: without a credential. */
const principals = callerPrincipals(anonymous);

function at<T>(items: readonly T[], sequence: number): T {
  const item = items[sequence % items.length];
  if (item === undefined) throw new RangeError('no targets');
  return item;
}

/**
 * GET that must answer 200; the body is read to the end (as a client would, and to free the socket).
 * Requests go to the API processes in turn.
 */
function get(baseUrls: readonly string[], path: (sequence: number) => string): Probe {
  return async (sequence) => {
    const response = await fetch(`${at(baseUrls, sequence)}${path(sequence)}`, {
      headers: { accept: 'application/json' },
    });
    await response.arrayBuffer();
    return response.status === 200;
  };
}

/** The cursors of every page of the wide node's children, so requests spread over the whole listing. */
export async function childPageCursors(baseUrl: string, nodeId: string): Promise<(string | null)[]> {
  const cursors: (string | null)[] = [null];
  for (;;) {
    const last = cursors.at(-1);
    const cursor = last === null || last === undefined ? '' : `&cursor=${encodeURIComponent(last)}`;
    const response = await fetch(
      `${baseUrl}/api/v1/browser/nodes/${nodeId}/children?limit=${CHILDREN_PAGE}${cursor}`,
    );
    const page = (await response.json()) as { next: string | null };
    if (page.next === null) return cursors;
    cursors.push(page.next);
  }
}

export function views(options: {
  readonly baseUrls: readonly string[];
  readonly pool: pg.Pool;
  readonly targets: TreeTargets;
  readonly childCursors: readonly (string | null)[];
  /** Live children of the wide node, for the view's name. */
  readonly wideChildren: number;
}): View[] {
  const { baseUrls, pool, targets, childCursors } = options;
  const wide = targets.wideNodeId;
  const crumbIds = targets.chains.map((chain) => chain.ids[BREADCRUMB_DEPTH - 1] ?? '');
  const paths = targets.chains.map((chain) => chain.slugs.slice(0, PATH_DEPTH));
  const inventory = (name: string, query: Record<string, string>): View => {
    const parsed: InventoryQuery = inventoryQuerySchema.parse(query);
    return {
      name,
      http: get(baseUrls, () => `/api/v1/portal/inventory/?${new URLSearchParams(query).toString()}`),
      sql: async () => {
        const [page] = await Promise.all([
          inventoryPage(pool, parsed, principals),
          inventoryTotals(pool, parsed, principals),
        ]);
        return page.items.length > 0;
      },
    };
  };
  return [
    {
      // The fastest answer the API gives at all (express, the request log, a tiny JSON body; no query),
      // beside the cheapest statement: the floor under every view's HTTP cost on this machine.
      name: HTTP_FLOOR_VIEW,
      http: get(baseUrls, () => '/health'),
      sql: async () => (await pool.query('SELECT 1')).rowCount === 1,
    },
    {
      name: `children of a node with ${options.wideChildren.toLocaleString('en-US')} children, page of ${CHILDREN_PAGE}`,
      http: get(baseUrls, (sequence) => {
        const cursor = at(childCursors, sequence);
        return `/api/v1/browser/nodes/${wide}/children?limit=${CHILDREN_PAGE}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      }),
      sql: async (sequence) => {
        const cursor = at(childCursors, sequence);
        const [node, page] = await Promise.all([
          findNode(pool, wide, principals),
          listNodes(
            pool,
            wide,
            { limit: CHILDREN_PAGE, sort: 'kind', order: 'asc', ...(cursor === null ? {} : { cursor }) },
            principals,
          ),
        ]);
        return node !== null && page.rows.length > 0;
      },
    },
    {
      name: `breadcrumbs at depth ${BREADCRUMB_DEPTH}`,
      http: get(baseUrls, (sequence) => `/api/v1/browser/nodes/${at(crumbIds, sequence)}/breadcrumbs`),
      sql: async (sequence) =>
        (await breadcrumbsOf(pool, at(crumbIds, sequence), principals))?.length === BREADCRUMB_DEPTH,
    },
    {
      name: `path lookup at depth ${PATH_DEPTH} (with its first 50 children)`,
      http: get(
        baseUrls,
        (sequence) => `/api/v1/browser/path/${at(paths, sequence).map(encodeURIComponent).join('/')}`,
      ),
      sql: async (sequence) => {
        const node = await resolvePath(pool, at(paths, sequence), principals, null);
        await listNodes(pool, node.id, { limit: 50, sort: 'kind', order: 'asc' }, principals);
        return node.depth === PATH_DEPTH;
      },
    },
    inventory('inventory, first page: kind=item&status=ready', { kind: 'item', status: 'ready' }),
    inventory(`inventory, first page: q=${SEARCH_WORD}`, { q: SEARCH_WORD }),
    // Totals are counted per request among the visible matches (docs/decisions.md, "Browsing").
    inventory('inventory, first page: parentId=<the wide node>', { parentId: wide }),
  ];
}
