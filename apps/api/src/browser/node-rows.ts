import type { BrowserNode, PortalItemStatus, PortalKind } from '@portal/contracts';

/** The columns of a browser node, as every browser query selects them from `read.portal_objects`. */
export const nodeColumns = (alias: string): string =>
  ['id', 'kind', 'status', 'title', 'slug', 'parent_id', 'depth', 'child_count', 'created_at', 'updated_at']
    .map((column) => `${alias}.${column}`)
    .join(', ');

export interface NodeRow {
  readonly id: string;
  readonly kind: PortalKind;
  readonly status: PortalItemStatus;
  readonly title: string;
  readonly slug: string;
  readonly parent_id: string | null;
  readonly depth: number;
  readonly child_count: number;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/**
 * Slugs of the node's ancestors joined from the root level down, by primary key (the node's
 * `ancestor_ids` is its materialized path); empty at the root level.
 */
export const ancestorPathSelect = (alias: string): string => `
  (SELECT COALESCE(string_agg(a.slug, '/' ORDER BY u.ord), '')
     FROM unnest(${alias}.ancestor_ids) WITH ORDINALITY AS u(id, ord)
     JOIN read.portal_objects a ON a.id = u.id) AS ancestor_path`;

export function joinPath(parentPath: string, slug: string): string {
  return parentPath === '' ? slug : `${parentPath}/${slug}`;
}

/** `parentPath`: the path of the node's parent ('' at the root level). */
export function browserNode(row: NodeRow, parentPath: string): BrowserNode {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    slug: row.slug,
    status: row.status,
    childCount: row.child_count,
    hasChildren: row.child_count > 0,
    updatedAt: row.updated_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    parentId: row.parent_id,
    depth: row.depth,
    path: joinPath(parentPath, row.slug),
  };
}
