import type { BrowserNode } from '@portal/contracts';
import type { QueryParams } from '@portal/read-model-core';
import { visibleObject, type NodeRow, type Principals } from '@portal/read-model-portal-objects';

/**
 * Slugs of the node's ancestors joined from the root level down, by primary key (the node's
 * `ancestor_ids` is its materialized path); empty at the root level. `NULL` when the caller cannot see
 * one of them: a path through a hidden object would name it (slugs come from titles), and the path
 * lookup could not follow it anyway.
 */
export function ancestorPathSelect(alias: string, principals: Principals, params: QueryParams): string {
  return `
  (SELECT CASE WHEN bool_and(${visibleObject('a', principals, params)}) IS NOT FALSE
               THEN COALESCE(string_agg(a.slug, '/' ORDER BY u.ord), '') END
     FROM unnest(${alias}.ancestor_ids) WITH ORDINALITY AS u(id, ord)
     JOIN read.portal_objects a ON a.id = u.id) AS ancestor_path`;
}

/** `null` when the parent has no path the caller may know (see `ancestorPathSelect`). */
export function joinPath(parentPath: string | null, slug: string): string | null {
  if (parentPath === null) return null;
  return parentPath === '' ? slug : `${parentPath}/${slug}`;
}

/** `parentPath`: the path of the node's parent ('' at the root level, `null` when hidden). */
export function browserNode(row: NodeRow, parentPath: string | null): BrowserNode {
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
