import { slugify, type PortalObjectMoved, type RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { boxUnionSql, itemExtentOf, itemsExtentWithoutSql } from './collection-extent.js';
import { assignSlug } from './slug-assignment.js';
import { descendantIds, statementCall, type StatementFunction } from './statement-function.js';
import { subtreeAccessCtes } from './subtree-access.js';
import { siblingGroupSql } from './sibling-group.js';

/**
 * A move in one statement: `$1` id, `$2` revision, `$3` new parent (NULL: root level), `$4` occurredAt,
 * `$5` the slug to take there, or NULL for "the current one, if no live sibling there holds it" (a URL
 * survives a move; the slug always derives from the title, so it is the first candidate the title gives
 * when it is free). When it is not free the statement changes nothing and says so (`applied` false);
 * the handler then picks the slug with `assignSlug` and sends the statement again with it.
 *
 * In one snapshot, so each row is written once:
 * - the object and its whole subtree (the ancestor_ids GIN index; a leaf finds nothing below it): the
 *   path swapped below the new parent, the depth, the object's parent, slug and version, and the access
 *   inherited from the new parent's path, computed from the rows' own facts; below a tombstone the
 *   subtree is buried (as the tombstone's delete would have done; a buried row keeps its slug, since a
 *   tombstone is outside the live siblings' slug index, and keeps its version, like a recursive delete);
 * - the old and new parent (one row when they are the same): a live object leaves one and joins the
 *   other (not when buried); a ready, live item leaves the old parent's extent (recomputed from the
 *   items staying there) and widens the new parent's.
 * The inventory totals follow through their statement triggers, which see every row written here.
 * `subtree` selects the object and its descendants (`o`): through the ancestor_ids index, or by their ids.
 */
function moveSql(subtree: string): string {
  return `
  WITH target AS (
    SELECT o.id, o.parent_id, o.org_id, o.title, o.slug, o.ancestor_ids, o.version,
           o.deleted_at IS NOT NULL AS deleted,
           o.kind = 'item' AND o.status = 'ready' AND o.deleted_at IS NULL AS in_extent,
           ${itemExtentOf('o')}
      FROM portal_objects o WHERE o.id = $1
  ), destination AS (
    SELECT p.ancestor_ids || p.id AS ancestor_ids, p.depth + 1 AS depth,
           p.deleted_at IS NOT NULL OR EXISTS (
             SELECT 1 FROM portal_objects a WHERE a.id = ANY(p.ancestor_ids) AND a.deleted_at IS NOT NULL
           ) AS buried,
           p.effective_visibility, p.share_readers, p.share_editors
      FROM portal_objects p WHERE p.id = $3
    UNION ALL
    SELECT '{}'::uuid[], 1, false, 'public', '{}'::text[], '{}'::text[] WHERE $3::uuid IS NULL
  ), due AS (
    -- Not applied yet, and its new parent known: where it lands, and with which slug.
    SELECT t.*, d.ancestor_ids AS new_ancestor_ids, d.depth AS new_depth, d.buried,
           CASE WHEN d.buried THEN t.slug ELSE COALESCE($5::text, t.slug) END AS new_slug,
           cardinality(t.ancestor_ids) + 1 AS top_position,
           d.effective_visibility, d.share_readers, d.share_editors
      FROM target t CROSS JOIN destination d
     WHERE t.version < $2
  ), go AS (
    SELECT * FROM due
     WHERE buried OR $5::text IS NOT NULL OR NOT EXISTS (
       -- The sibling group of the unique slug index: the parent, at root level the organization.
       SELECT 1 FROM portal_objects s
        WHERE ${siblingGroupSql('s.parent_id', 's.org_id')} = ${siblingGroupSql('$3::uuid', 'due.org_id')}
          AND s.deleted_at IS NULL AND s.id <> due.id AND s.slug = due.slug)
  ), subtree AS MATERIALIZED (
    SELECT o.id, o.ancestor_ids, o.org_id, o.created_by, o.visibility, o.shares
      FROM portal_objects o
     WHERE ${subtree} AND EXISTS (SELECT 1 FROM go)
  ), ${subtreeAccessCtes({ above: 'go', subtree: 'subtree' })},
  moved AS (
    UPDATE portal_objects o
       SET parent_id = CASE WHEN o.id = g.id THEN $3::uuid ELSE o.parent_id END,
           ancestor_ids = g.new_ancestor_ids || o.ancestor_ids[g.top_position:],
           depth = CASE WHEN o.id = g.id THEN g.new_depth
                        ELSE cardinality(g.new_ancestor_ids) + cardinality(o.ancestor_ids) - g.top_position + 2 END,
           slug = CASE WHEN o.id = g.id THEN g.new_slug ELSE o.slug END,
           version = CASE WHEN o.id = g.id THEN $2::bigint ELSE o.version END,
           updated_at = CASE WHEN o.id = g.id THEN $4::timestamptz ELSE o.updated_at END,
           deleted_at = CASE WHEN g.buried THEN COALESCE(o.deleted_at, $4::timestamptz) ELSE o.deleted_at END,
           child_count = CASE WHEN g.buried THEN 0 ELSE o.child_count END,
           effective_visibility = c.effective_visibility, share_readers = c.share_readers,
           share_editors = c.share_editors, read_principals = c.read_principals
      FROM go g, computed c
     WHERE o.id = c.id
  ), parent_changes AS (
    SELECT id, sum(delta)::integer AS delta, bool_or(leaves) AS item_leaves, bool_or(arrives) AS item_arrives
      FROM (SELECT g.parent_id AS id, -1 AS delta, g.in_extent AS leaves, false AS arrives
              FROM go g WHERE NOT g.deleted AND g.parent_id IS NOT NULL
            UNION ALL
            SELECT $3::uuid, 1, false, g.in_extent
              FROM go g WHERE NOT g.deleted AND NOT g.buried AND $3::uuid IS NOT NULL) change
     GROUP BY id
  ), parent_extents AS (
    SELECT c.id, c.delta, c.item_arrives,
           CASE WHEN c.item_leaves THEN r.box ELSE old.items_bbox END AS box,
           CASE WHEN c.item_leaves THEN r.starts ELSE old.items_start END AS starts,
           CASE WHEN c.item_leaves THEN r.ends ELSE old.items_end END AS ends
      FROM parent_changes c JOIN portal_objects old ON old.id = c.id
      CROSS JOIN go g
      CROSS JOIN LATERAL (${itemsExtentWithoutSql('c.id', 'g.id', 'c.item_leaves')}) r
  ), parents AS (
    UPDATE portal_objects p
       SET child_count = p.child_count + e.delta,
           items_bbox = CASE WHEN e.item_arrives THEN ${boxUnionSql('e.box', 'g.box')} ELSE e.box END,
           items_start = CASE WHEN e.item_arrives THEN least(e.starts, g.starts) ELSE e.starts END,
           items_end = CASE WHEN e.item_arrives THEN greatest(e.ends, g.ends) ELSE e.ends END
      FROM parent_extents e CROSS JOIN go g
     WHERE p.id = e.id AND p.deleted_at IS NULL
  )
  SELECT EXISTS (SELECT 1 FROM target) AS known, EXISTS (SELECT 1 FROM target WHERE version < $2) AS due,
         EXISTS (SELECT 1 FROM due) AS placed, EXISTS (SELECT 1 FROM go) AS applied,
         (SELECT title FROM target) AS title, (SELECT org_id FROM target) AS org_id,
         (SELECT slug FROM target) AS slug`;
}

export const moveFunction: StatementFunction = {
  name: 'portal_move_object',
  parameters: ['uuid', 'bigint', 'uuid', 'timestamptz', 'text'],
  returns: 'known boolean, due boolean, placed boolean, applied boolean, title text, org_id uuid, slug text',
  body: moveSql('(o.id = $1 OR o.ancestor_ids @> ARRAY[$1::uuid])'),
  // Most moves are of leaves (no id below) or of small subtrees: every row found by key.
  keyedBody: moveSql(`(o.id = $1 OR o.id = ANY(${descendantIds}))`),
};
const moveCall = statementCall(moveFunction);

interface MoveOutcome {
  known: boolean;
  due: boolean;
  placed: boolean;
  applied: boolean;
  title: string | null;
  org_id: string | null;
  slug: string | null;
}

async function sendMove(
  sql: Sql,
  event: PortalObjectMoved,
  recorded: RecordedEvent,
  slug: string | null,
): Promise<MoveOutcome> {
  const { id, toParentId } = event.data;
  const result = await sql.query<MoveOutcome>({
    ...moveCall,
    values: [id, recorded.revision.toString(), toParentId, recorded.metadata.occurredAt, slug],
  });
  const outcome = result.rows[0];
  if (outcome?.known !== true) throw new Error(`${event.data.kind} ${id} is not in the read model`);
  if (outcome.due && !outcome.placed) {
    throw new Error(`parent ${String(toParentId)} of ${id} is not in the read model`);
  }
  return outcome;
}

/**
 * One round trip, or (when a live sibling at the destination holds the object's slug) a few more:
 * the slug lookups and the statement again with the slug they found. Applying it twice changes nothing
 * (the object's version guards the whole statement).
 */
export async function applyMove(sql: Sql, event: PortalObjectMoved, recorded: RecordedEvent): Promise<void> {
  const first = await sendMove(sql, event, recorded, null);
  if (!first.due || first.applied) return;
  const slug = await assignSlug(sql, {
    parentId: event.data.toParentId,
    orgId: first.org_id,
    base: slugify(first.title ?? ''),
    objectId: event.data.id,
    current: first.slug,
  });
  const second = await sendMove(sql, event, recorded, slug);
  if (!second.applied) throw new Error(`move of ${event.data.id} to the free slug ${slug} did not apply`);
}
