import type { Breadcrumb, PortalKind } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { joinPath } from './node-rows.js';
import { prepared } from './prepared.js';
import { QueryParams } from './query-params.js';
import { visibleObject } from './visibility.js';

interface CrumbRow {
  readonly id: string;
  readonly kind: PortalKind;
  readonly title: string;
  readonly slug: string;
}

/**
 * The path from the root level down to the node, in one statement whatever the depth: the node's
 * `ancestor_ids` (its materialized path, kept by the projector) is unnested in order and each id read by
 * primary key. `null` when the node is not visible.
 */
export async function breadcrumbsOf(pool: Pool, id: string): Promise<Breadcrumb[] | null> {
  const params = new QueryParams();
  const result = await pool.query<CrumbRow>(
    prepared(
      `SELECT a.id, a.kind, a.title, a.slug
         FROM read.portal_objects n
         CROSS JOIN LATERAL unnest(n.ancestor_ids || n.id) WITH ORDINALITY AS u(id, ord)
         JOIN read.portal_objects a ON a.id = u.id AND ${visibleObject('a', params)}
        WHERE n.id = ${params.add(id, 'uuid')} AND ${visibleObject('n', params)}
        ORDER BY u.ord`,
      params.values,
    ),
  );
  if (result.rows.length === 0) return null;
  let path = '';
  return result.rows.map((row) => {
    path = joinPath(path, row.slug);
    return { id: row.id, kind: row.kind, title: row.title, slug: row.slug, path };
  });
}
