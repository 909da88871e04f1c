import type { PortalObjectMoved, RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { boxUnionSql, itemExtentOf, itemsExtentWithoutSql } from './collection-extent.js';
import { applyMove } from './move-statement.js';
import { onePerObject } from './one-per-object.js';
import { siblingGroupSql } from './sibling-group.js';

/**
 * Every leaf move of a run in one statement (`$1` ids, `$2` revisions, `$3` new parents, NULL for root
 * level, `$4` occurredAt, one element per move): what `portal_move_object` (move-statement.ts) does for
 * one leaf, for all of them at once, each row found by key.
 *
 * - Each move is due when its row's version is below the revision (replayed: nothing changes) and its
 *   new parent is known; it goes when it lands below a tombstone (buried: the row is tombstoned, keeps
 *   its slug and gets no count) or no live sibling at the destination holds its slug. The row takes the
 *   new parent, path, depth, version and updated_at, and the access inherited from the new parent,
 *   computed from its own visibility and shares alone (a leaf's path below its parent is itself; the
 *   same rule as subtree-access.ts).
 * - Every parent the moves leave or join is written once: its child count moved by the live objects
 *   leaving it and joining it (not buried ones; a move within a parent cancels out); its items extent,
 *   when a ready item left it, recomputed from the ready items staying below it (neither the moved
 *   ones nor any other mover), then widened by the min and max of the ready items arriving. One by one
 *   gives the same: after a recompute a parent's extent is its items' extent, which each widening
 *   keeps, so once one leaver recomputed it the last event leaves its final items' extent; without a
 *   leaver, the stored extent widened by each arrival.
 * - The inventory totals' statement triggers see both updates as one statement (the net difference).
 *
 * Answers, per move (`n`, its place in the list): whether its row is known, whether it is due, whether
 * it has live children (`has_children`: not a leaf, which the preconditions rule out), placed (its new
 * parent known) and applied. And `overlap`: a moved row that is also a parent the statement writes
 * (ruled out too; PostgreSQL would silently write it once).
 */
const leafMovesSql = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::timestamptz[])
                  WITH ORDINALITY AS m(id, revision, to_parent, at, n)
  ), target AS (
    SELECT m.n, m.revision, m.to_parent, m.at, o.id, o.parent_id, o.org_id, o.slug, o.version,
           o.created_by, o.visibility, o.shares, o.child_count > 0 AS has_children,
           o.deleted_at IS NOT NULL AS deleted,
           o.kind = 'item' AND o.status = 'ready' AND o.deleted_at IS NULL AS in_extent,
           ${itemExtentOf('o')}
      FROM input m JOIN portal_objects o ON o.id = m.id
  ), placed AS (
    -- Not applied yet, and its new parent known: where it lands.
    SELECT t.*, d.ancestor_ids AS new_ancestor_ids, d.depth AS new_depth, d.buried,
           d.effective_visibility AS above_visibility, d.share_readers AS above_readers,
           d.share_editors AS above_editors
      FROM target t
     CROSS JOIN LATERAL (
       SELECT p.ancestor_ids || p.id AS ancestor_ids, p.depth + 1 AS depth,
              p.deleted_at IS NOT NULL OR EXISTS (
                SELECT 1 FROM portal_objects a WHERE a.id = ANY(p.ancestor_ids) AND a.deleted_at IS NOT NULL
              ) AS buried,
              p.effective_visibility, p.share_readers, p.share_editors
         FROM portal_objects p WHERE p.id = t.to_parent
       UNION ALL
       SELECT '{}'::uuid[], 1, false, 'public', '{}'::text[], '{}'::text[] WHERE t.to_parent IS NULL
     ) d
     WHERE t.version < t.revision
  ), go AS MATERIALIZED (
    SELECT * FROM placed g
     WHERE buried OR NOT EXISTS (
       -- The sibling group of the unique slug index: the parent, at root level the organization.
       SELECT 1 FROM portal_objects s
        WHERE ${siblingGroupSql('s.parent_id', 's.org_id')} = ${siblingGroupSql('g.to_parent', 'g.org_id')}
          AND s.deleted_at IS NULL AND s.id <> g.id AND s.slug = g.slug)
  ), landing AS (
    -- A leaf's access: its own visibility and shares on top of what the new parent passes on.
    SELECT g.id, g.to_parent, g.new_ancestor_ids, g.new_depth, g.revision, g.at, g.buried,
           g.org_id, g.created_by, a.effective_visibility, a.share_readers, a.share_editors
      FROM go g
     CROSS JOIN LATERAL (
       -- NULL when the object has no shares.
       SELECT array_agg(portal_share_reader(share)) AS readers, array_agg(portal_share_editor(share)) AS editors
         FROM jsonb_array_elements(g.shares) AS share
     ) own
     CROSS JOIN LATERAL (
       SELECT portal_narrower_visibility(g.above_visibility, g.visibility) AS effective_visibility,
              CASE WHEN g.visibility = 'private' THEN portal_principal_set(COALESCE(own.readers, '{}'))
                   WHEN own.readers IS NULL THEN g.above_readers
                   ELSE portal_principal_set(g.above_readers || own.readers) END AS share_readers,
              CASE WHEN g.visibility = 'private' THEN portal_principal_set(COALESCE(own.editors, '{}'))
                   WHEN own.editors IS NULL THEN g.above_editors
                   ELSE portal_principal_set(g.above_editors || own.editors) END AS share_editors
     ) a
  ), moved AS (
    UPDATE portal_objects o
       SET parent_id = l.to_parent, ancestor_ids = l.new_ancestor_ids, depth = l.new_depth,
           version = l.revision, updated_at = l.at,
           deleted_at = CASE WHEN l.buried THEN COALESCE(o.deleted_at, l.at) ELSE o.deleted_at END,
           child_count = CASE WHEN l.buried THEN 0 ELSE o.child_count END,
           effective_visibility = l.effective_visibility, share_readers = l.share_readers,
           share_editors = l.share_editors,
           read_principals = portal_read_principals(l.org_id, l.created_by, l.effective_visibility, l.share_readers)
      FROM landing l
     WHERE o.id = l.id
  ), parent_changes AS MATERIALIZED (
    -- Per parent left or joined by a live object: the count, the ready items leaving it, and the extent
    -- of those arriving.
    SELECT id, sum(delta)::integer AS delta,
           array_agg(mover) FILTER (WHERE leaves) AS leavers,
           bool_or(arrives) AS item_arrives,
           CASE WHEN count(box) FILTER (WHERE arrives) > 0
                THEN ARRAY[min(box[1]) FILTER (WHERE arrives), min(box[2]) FILTER (WHERE arrives),
                           max(box[3]) FILTER (WHERE arrives), max(box[4]) FILTER (WHERE arrives)] END AS box,
           min(starts) FILTER (WHERE arrives) AS starts, max(ends) FILTER (WHERE arrives) AS ends
      FROM (SELECT g.parent_id AS id, g.id AS mover, -1 AS delta, g.in_extent AS leaves, false AS arrives,
                   NULL::double precision[] AS box, NULL::timestamptz AS starts, NULL::timestamptz AS ends
              FROM go g WHERE NOT g.deleted AND g.parent_id IS NOT NULL
            UNION ALL
            SELECT g.to_parent, g.id, 1, false, g.in_extent, g.box, g.starts, g.ends
              FROM go g WHERE NOT g.deleted AND NOT g.buried AND g.to_parent IS NOT NULL) change
     GROUP BY id
  ), parent_extents AS (
    SELECT c.id, c.delta, c.item_arrives, c.box AS arriving_box, c.starts AS arriving_starts,
           c.ends AS arriving_ends,
           CASE WHEN c.leavers IS NOT NULL THEN r.box ELSE old.items_bbox END AS box,
           CASE WHEN c.leavers IS NOT NULL THEN r.starts ELSE old.items_start END AS starts,
           CASE WHEN c.leavers IS NOT NULL THEN r.ends ELSE old.items_end END AS ends
      FROM parent_changes c JOIN portal_objects old ON old.id = c.id
      -- Every ready item leaving the parent is left out (still below it in this snapshot).
     CROSS JOIN LATERAL (${itemsExtentWithoutSql('c.id', 'ALL(c.leavers)', 'c.leavers IS NOT NULL')}) r
  ), parents AS (
    UPDATE portal_objects p
       SET child_count = p.child_count + e.delta,
           items_bbox = CASE WHEN e.item_arrives THEN ${boxUnionSql('e.box', 'e.arriving_box')} ELSE e.box END,
           items_start = CASE WHEN e.item_arrives THEN least(e.starts, e.arriving_starts) ELSE e.starts END,
           items_end = CASE WHEN e.item_arrives THEN greatest(e.ends, e.arriving_ends) ELSE e.ends END
      FROM parent_extents e
     WHERE p.id = e.id AND p.deleted_at IS NULL
  )
  SELECT m.n::integer AS n, t.id IS NOT NULL AS known, COALESCE(t.version < t.revision, false) AS due,
         -- A move already applied changes nothing, whatever lies below the object now.
         COALESCE(t.has_children AND t.version < t.revision, false) AS has_children,
         p.id IS NOT NULL AS placed, g.id IS NOT NULL AS applied,
         EXISTS (SELECT id FROM parent_changes INTERSECT SELECT id FROM go) AS overlap
    FROM input m
    LEFT JOIN target t ON t.n = m.n
    LEFT JOIN placed p ON p.n = m.n
    LEFT JOIN go g ON g.n = m.n
   ORDER BY m.n`;

/** The statement as the projector prepares it (its plan is cached under the name); a bench explains it. */
export const leafMovesStatement = { name: 'projector_portal_objects_leaf_moves_run', text: leafMovesSql };

interface LeafMoveOutcome {
  n: number;
  known: boolean;
  due: boolean;
  has_children: boolean;
  placed: boolean;
  applied: boolean;
  overlap: boolean;
}

/**
 * The leaf moves of a run, leaving the rows that `applyMove` for each of them, in order, leaves: one
 * statement for all of them, then `applyMove` for the few whose slug a live sibling at the destination
 * holds (they take the first free candidate of their title, `assignSlug`'s lookups, which are not worth
 * doing in SQL for a case this rare; the statement changed nothing of them).
 *
 * What the caller (the run cutter, through the footprints) guarantees, and this relies on:
 * - every moved object had no row below it, live or a tombstone, when the run starts (a leaf: its
 *   subtree is its row alone). A live child shows in the row's child count (checked: it throws); a
 *   tombstone below it would take a lookup of the ancestor_ids GIN index, which a cached generic plan
 *   may turn into a scan of the table (statement-function.ts), so that part is the caller's alone;
 * - no object is moved twice in the list (checked: it throws);
 * - no other event of the run changes the moved objects, nor the place, access or tombstone of their
 *   old or new parents; no move's old parent or destination is moved, deleted or created in the run
 *   (so the rows each move reads are as event order would have them, and no row is both moved and a
 *   parent written here: checked, it throws);
 * - in each sibling group (the parent, at root level the organization) no two moves of the run take or
 *   free slugs of the same family (`alpha`, `alpha-2`: `derivesFrom`), so whether a move's slug is free
 *   does not depend on the others, and the moves applied afterwards find what event order gives them.
 *
 * A missing row, or a missing new parent of a move not applied yet, throws, as `applyMove` does.
 *
 * Cost: about one one-row UPDATE's round trip per move, 3.5–4.8× less than `applyMove` one by one on
 * cached plans, 8.7× less under `force_custom_plan` (`bench/leaf-moves.ts`, 50 moves on 52,100 rows;
 * docs/projection.md, "Leaf moves as one statement per run").
 */
export async function applyLeafMovesInRun(
  sql: Sql,
  moves: readonly (readonly [PortalObjectMoved, RecordedEvent])[],
): Promise<void> {
  if (moves.length === 0) return;
  onePerObject(moves, () => 'a run moves an object twice');
  const ids = moves.map(([event]) => event.data.id);
  const result = await sql.query<LeafMoveOutcome>({
    ...leafMovesStatement,
    values: [
      ids,
      moves.map(([, recorded]) => recorded.revision.toString()),
      moves.map(([event]) => event.data.toParentId),
      moves.map(([, recorded]) => recorded.metadata.occurredAt),
    ],
  });
  const slugTaken: (readonly [PortalObjectMoved, RecordedEvent])[] = [];
  for (const outcome of result.rows) {
    const move = moves[outcome.n - 1];
    if (!move) throw new Error(`leaf moves answered for move ${outcome.n} of ${moves.length}`);
    const [event] = move;
    const { id, toParentId } = event.data;
    if (!outcome.known) throw new Error(`${event.data.kind} ${id} is not in the read model`);
    if (outcome.due && !outcome.placed) {
      throw new Error(`parent ${String(toParentId)} of ${id} is not in the read model`);
    }
    if (outcome.has_children) throw new Error(`${event.data.kind} ${id} has children: not a leaf move`);
    if (outcome.overlap) throw new Error('a run moved an object that is also a parent of its moves');
    if (outcome.placed && !outcome.applied) slugTaken.push(move);
  }
  for (const [event, recorded] of slugTaken) await applyMove(sql, event, recorded);
}
