import type { Sql } from '@portal/read-model-core';

/** Where the access of a subtree is computed from (see `subtreeAccessCtes`). */
export interface SubtreeAccessSources {
  /**
   * A CTE name or subquery with one row: `top_position` (the place of the subtree's top in its
   * descendants' `ancestor_ids`: its own path's length + 1) and what the top's parent passes on
   * (`effective_visibility`, `share_readers`, `share_editors`; `public`, nothing at root level).
   */
  readonly above: string;
  /**
   * A CTE name with a row per object of the subtree, its top included: `id`, `ancestor_ids` (as stored:
   * the path from the top down is what counts, and a move does not change it), `org_id`, `created_by`
   * and the own facts `visibility` and `shares` the result must follow.
   */
  readonly subtree: string;
}

/**
 * CTEs (to follow a `WITH … ,`) computing what every object of a subtree inherits (effective visibility,
 * share readers and editors) and so its read principals, from each row's own visibility and shares along
 * its path (shares stop at an object private on its own: docs/identity.md), on top of what the top's
 * parent passes on. The last one, `computed`, has `id`, `effective_visibility`, `share_readers`,
 * `share_editors`, `read_principals`. Each row is paired with the objects on its path from the top down
 * to itself (all in the subtree), and one hash join and one aggregate give every row its values.
 *
 * Materialized on purpose: flattened first, the paths meet the subtree in one join; left to the
 * planner, it may walk the subtree once per row (quadratic: minutes for 100,000 rows).
 */
export function subtreeAccessCtes({ above, subtree }: SubtreeAccessSources): string {
  return `
  steps AS MATERIALIZED (
    -- Every row of the subtree beside each object on its path from the top, itself included, numbered
    -- from the top down.
    SELECT row.id, row.org_id, row.created_by, on_path.id AS step_id, on_path.n
      FROM ${subtree} row CROSS JOIN ${above} above
     CROSS JOIN LATERAL unnest(row.ancestor_ids[above.top_position:] || row.id)
                        WITH ORDINALITY AS on_path(id, n)
  ), stepped AS (
    -- A step private on its own stops the shares above it (sharesReaching of the domain): only shares
    -- from the last such step down reach the row, and nothing the top's parent passes on.
    SELECT steps.id, steps.org_id, steps.created_by, steps.n, step.visibility, step.shares,
           max(steps.n) FILTER (WHERE step.visibility = 'private') OVER (PARTITION BY steps.id) AS last_private
      FROM steps JOIN ${subtree} step ON step.id = steps.step_id
  ), path AS (
    SELECT stepped.id, stepped.org_id, stepped.created_by,
           min(array_position(ARRAY['private', 'org', 'public'], stepped.visibility)) AS narrowest,
           bool_or(stepped.visibility = 'private') AS stops_above,
           -- NULL when no reaching step has shares: the common case, which needs no set union below.
           array_agg(portal_share_reader(share.value))
             FILTER (WHERE share.value IS NOT NULL AND stepped.n >= COALESCE(stepped.last_private, 0)) AS readers,
           array_agg(portal_share_editor(share.value))
             FILTER (WHERE share.value IS NOT NULL AND stepped.n >= COALESCE(stepped.last_private, 0)) AS editors
      FROM stepped
      LEFT JOIN LATERAL jsonb_array_elements(stepped.shares) AS share(value) ON true
     GROUP BY stepped.id, stepped.org_id, stepped.created_by
  ), inherited AS (
    SELECT path.id, path.org_id, path.created_by,
           portal_narrower_visibility(above.effective_visibility,
                                      (ARRAY['private', 'org', 'public'])[path.narrowest]) AS effective_visibility,
           CASE WHEN path.stops_above THEN portal_principal_set(COALESCE(path.readers, '{}'))
                WHEN path.readers IS NULL THEN above.share_readers
                ELSE portal_principal_set(above.share_readers || path.readers) END AS share_readers,
           CASE WHEN path.stops_above THEN portal_principal_set(COALESCE(path.editors, '{}'))
                WHEN path.editors IS NULL THEN above.share_editors
                ELSE portal_principal_set(above.share_editors || path.editors) END AS share_editors
      FROM path CROSS JOIN ${above} above
  ), computed AS MATERIALIZED (
    SELECT id, effective_visibility, share_readers, share_editors,
           portal_read_principals(org_id, created_by, effective_visibility, share_readers) AS read_principals
      FROM inherited
  )`;
}

/** Whether a row's access columns differ from those `computed` gives it (`o`: the row, `c`: computed). */
export const accessChanged = `(o.effective_visibility, o.share_readers, o.share_editors, o.read_principals) IS DISTINCT FROM
         (c.effective_visibility, c.share_readers, c.share_editors, c.read_principals)`;

/**
 * Recomputes what the object and everything below it inherit, from the rows' own facts, in one
 * statement. Idempotent: rows whose values are already right are not written. The handlers do this
 * inside the statement that changes the facts; this one repairs or checks a subtree as it stands.
 */
const recomputeSubtreeSql = `
  WITH above AS (
    SELECT cardinality(o.ancestor_ids) + 1 AS top_position,
           COALESCE(p.effective_visibility, 'public') AS effective_visibility,
           COALESCE(p.share_readers, '{}') AS share_readers, COALESCE(p.share_editors, '{}') AS share_editors
      FROM portal_objects o LEFT JOIN portal_objects p ON p.id = o.parent_id
     WHERE o.id = $1
  ), subtree AS MATERIALIZED (
    SELECT id, ancestor_ids, org_id, created_by, visibility, shares
      FROM portal_objects WHERE id = $1 OR ancestor_ids @> ARRAY[$1::uuid]
  ), ${subtreeAccessCtes({ above: 'above', subtree: 'subtree' })}
  UPDATE portal_objects o
     SET effective_visibility = c.effective_visibility, share_readers = c.share_readers,
         share_editors = c.share_editors, read_principals = c.read_principals
    FROM computed c
   WHERE o.id = c.id AND (o.id = $1 OR o.ancestor_ids @> ARRAY[$1::uuid]) AND ${accessChanged}`;

export async function recomputeSubtreeAccess(sql: Sql, id: string): Promise<void> {
  await sql.query({
    name: 'projector_portal_objects_recompute_subtree_access',
    text: recomputeSubtreeSql,
    values: [id],
  });
}
