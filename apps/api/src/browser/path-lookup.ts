import { isStorableText, type BrowserNode } from '@portal/contracts';
import { MAX_DEPTH } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { HttpProblem } from '../http/problem.js';
import { browserNode } from './node-rows.js';
import { prepared } from './prepared.js';
import { QueryParams } from '@portal/read-model-core';
import {
  nodeColumns,
  siblingGroupSql,
  visibleObject,
  type NodeRow,
  type Principals,
} from '@portal/read-model-portal-objects';

/**
 * The slugs of a `browser/path/*path` request, as express decoded them (percent-encoding undone, split
 * on `/`). A path names a node from the root level down, so `.`, `..` and empty segments have no
 * meaning here: they answer 400 instead of being normalised into some other node.
 */
export function slugSegments(segments: readonly string[]): string[] {
  if (segments.length === 0) throw badPath('must name at least one slug, e.g. `climate/temperature`');
  if (segments.length > MAX_DEPTH) {
    throw badPath(`has ${segments.length} segments; the tree is at most ${MAX_DEPTH} levels deep`);
  }
  return segments.map((segment, index) => {
    const which = `segment ${index + 1}`;
    if (segment === '') throw badPath(`${which} is empty (a doubled or trailing "/")`);
    if (segment === '.' || segment === '..') {
      throw badPath(`${which} is "${segment}"; paths are resolved from the root level only`);
    }
    if (!isStorableText(segment)) throw badPath(`${which} contains NUL or an unpaired surrogate`);
    // Slugs are stored in NFC; a client on a system that decomposes (NFD) still finds them.
    return segment.normalize('NFC');
  });
}

function badPath(reason: string): HttpProblem {
  return new HttpProblem(400, `path ${reason}`, 'INVALID_PATH');
}

/**
 * Walks the slugs down from the root level in one recursive statement and returns the deepest node
 * reached: the node itself, or where the walk stopped. Only through objects the caller can see: a
 * hidden one stops the walk exactly where a missing one would.
 *
 * Root-level slugs are unique per organization only, so the first slug may name several root nodes the
 * caller can see (public catalogs of two organizations): the walk takes one, the caller's active
 * organization's if it has one, else the oldest (`created_at`, then `id`), and goes on below it alone
 * (one lookup on `portal_objects_root_slug`). Below a parent, siblings are unique by slug: one lookup per
 * level on the sibling-slug unique index, hence its very expression, in which the parent's id stands
 * (objects' and organizations' ids are distinct UUIDs, so a root-level row never matches there).
 */
async function walk(
  pool: Pool,
  slugs: readonly string[],
  principals: Principals,
  activeOrgId: string | null,
) {
  const params = new QueryParams();
  const path = params.add(slugs, 'text[]');
  const preferredOrg = params.add(activeOrgId, 'uuid');
  const result = await pool.query<NodeRow & { level: number }>(
    prepared(
      `WITH RECURSIVE walk(id, level) AS (
         (SELECT o.id, 1 FROM read.portal_objects o
           WHERE o.parent_id IS NULL AND o.slug = (${path})[1] AND ${visibleObject('o', principals, params)}
           ORDER BY (o.org_id = ${preferredOrg}) IS TRUE DESC, o.created_at, o.id
           LIMIT 1)
         UNION ALL
         SELECT o.id, w.level + 1 FROM walk w
           JOIN read.portal_objects o
             ON ${siblingGroupSql('o.parent_id', 'o.org_id')} = w.id AND o.slug = (${path})[w.level + 1]
          WHERE w.level < cardinality(${path}) AND ${visibleObject('o', principals, params)}
       )
       SELECT w.level, ${nodeColumns('o', principals, params)}
         FROM walk w JOIN read.portal_objects o ON o.id = w.id
        ORDER BY w.level DESC
        LIMIT 1`,
      params.values,
    ),
  );
  return result.rows[0] ?? null;
}

/** Echoed text stays short: a URL may carry kilobytes in one segment. */
function shortened(text: string): string {
  return text.length <= 100 ? text : `${text.slice(0, 99)}…`;
}

/**
 * The node at the slug path; 404 naming the first segment that names no node the caller can see, with
 * the same words whether it is missing or hidden. `activeOrgId` (the caller's active organization, or
 * `null`) decides between root-level nodes of several organizations that share the first slug.
 */
export async function resolvePath(
  pool: Pool,
  slugs: readonly string[],
  principals: Principals,
  activeOrgId: string | null,
): Promise<BrowserNode> {
  const reached = await walk(pool, slugs, principals, activeOrgId);
  const resolved = reached?.level ?? 0;
  if (reached && resolved === slugs.length) return browserNode(reached, slugs.slice(0, -1).join('/'));
  const missing = shortened(slugs[resolved] ?? '');
  const under =
    resolved === 0 ? 'at the root level' : `under "${shortened(slugs.slice(0, resolved).join('/'))}"`;
  throw new HttpProblem(
    404,
    `path segment ${resolved + 1} "${missing}" names no node ${under}`,
    'PATH_NOT_FOUND',
    [{ path: `path[${resolved}]`, message: `"${missing}" names no node ${under}` }],
  );
}
