import type { Breadcrumb } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { joinPath } from './node-rows.js';
import { prepared } from './prepared.js';
import { QueryParams } from '@portal/read-model-core';
import {
  crumbColumns,
  visibleObject,
  type CrumbRow,
  type Principals,
} from '@portal/read-model-portal-objects';

/**
 * The path from the root level down to the node, in one statement whatever the depth: the node's
 * `ancestor_ids` (its materialized path, kept by the projector) is unnested in order and each id read by
 * primary key. `null` when the node is not visible.
 *
 * An ancestor the caller cannot see is left out (nothing of it is read: the join answers `NULL`s), and
 * the crumbs below it have no `path`, since a path through it would name it.
 */
export async function breadcrumbsOf(
  pool: Pool,
  id: string,
  principals: Principals,
): Promise<Breadcrumb[] | null> {
  const params = new QueryParams();
  const result = await pool.query<CrumbRow>(
    prepared(
      `SELECT ${crumbColumns('a')}
         FROM read.portal_objects n
         CROSS JOIN LATERAL unnest(n.ancestor_ids || n.id) WITH ORDINALITY AS u(id, ord)
         LEFT JOIN read.portal_objects a ON a.id = u.id AND ${visibleObject('a', principals, params)}
        WHERE n.id = ${params.add(id, 'uuid')} AND ${visibleObject('n', principals, params)}
        ORDER BY u.ord`,
      params.values,
    ),
  );
  if (result.rows.length === 0) return null;
  const crumbs: Breadcrumb[] = [];
  let path: string | null = '';
  for (const row of result.rows) {
    if (row.id === null || row.kind === null || row.title === null || row.slug === null) {
      path = null;
      continue;
    }
    path = joinPath(path, row.slug);
    crumbs.push({ id: row.id, kind: row.kind, title: row.title, slug: row.slug, path });
  }
  return crumbs;
}
