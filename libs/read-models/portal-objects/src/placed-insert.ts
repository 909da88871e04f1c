import { slugify, type CreatedAccess } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import type { NewObjectRow } from './new-object-row.js';
import { assignSlug } from './slug-assignment.js';

/**
 * The insert of a new object below its parent, for one create event type. Parameters `$1`–`$7` are the
 * same for every type (id, parent id, slug, occurredAt, organization, visibility, creator); the event's
 * own columns take `$8` on.
 */
export interface PlacedInsert {
  /** Names the prepared statements: `projector_portal_objects_insert_<name>_…`. */
  readonly name: string;
  /** The event's own columns, and the expressions filling them in the same order. */
  readonly columns: readonly string[];
  readonly values: readonly string[];
  /** Further data-modifying CTEs, run in the same statement; `inserted` names the new row (if any). */
  readonly alongside?: string;
  /** The parameters from `$8` on, for a row. */
  readonly ownValues: (row: NewObjectRow) => readonly unknown[];
}

interface Statement {
  readonly name: string;
  readonly text: string;
}

/** Both statements of an insert: the first try on any unique index, the retry on the primary key only. */
export interface PlacedInsertStatements {
  readonly firstTry: Statement;
  readonly byId: Statement;
  readonly ownValues: (row: NewObjectRow) => readonly unknown[];
}

/**
 * One round trip: the placement and the inherited access come from the parent row (a new object has no
 * shares of its own: it reads what its parent's path grants, narrowed by its own visibility, and a private
 * one none of the shares above it), the insert
 * is guarded by the primary key (and, on the first try, by the sibling slug index too), and the parent's
 * child count moves only when a live row was inserted. Prepared by name: creates are the hottest statements of a bulk ingest.
 *
 * A create appends to the child's own stream only, so it can land after its parent's (or an ancestor's)
 * tombstone. The command side then answers 404 for the child (its ancestor is deleted), so the row is
 * born a tombstone, as if the delete had cascaded over it: it counts for no one and, outside the partial
 * slug index, takes no slug from live siblings.
 */
export function placedInsertStatements(insert: PlacedInsert): PlacedInsertStatements {
  if (insert.columns.length !== insert.values.length) {
    throw new Error(
      `placed insert ${insert.name}: ${insert.columns.length} columns, ${insert.values.length} values`,
    );
  }
  const statement = (arbiter: 'any-unique-index' | 'primary-key'): Statement => ({
    name: `projector_portal_objects_insert_${insert.name}_${arbiter === 'primary-key' ? 'by_id' : 'any'}`,
    text: `
      WITH parent AS (
        SELECT p.ancestor_ids || p.id AS ancestor_ids, p.depth + 1 AS depth,
               p.deleted_at IS NOT NULL OR EXISTS (
                 SELECT 1 FROM portal_objects a WHERE a.id = ANY(p.ancestor_ids) AND a.deleted_at IS NOT NULL
               ) AS under_tombstone,
               portal_narrower_visibility(p.effective_visibility, $6) AS effective_visibility,
               -- A private object stops the shares above it (docs/identity.md); a new one has none of its own.
               CASE WHEN $6 = 'private' THEN '{}'::text[] ELSE p.share_readers END AS share_readers,
               CASE WHEN $6 = 'private' THEN '{}'::text[] ELSE p.share_editors END AS share_editors,
               p.kind AS parent_kind, p.stac_id AS parent_stac_id
          FROM portal_objects p WHERE p.id = $2
        UNION ALL
        SELECT '{}'::uuid[], 1, false, $6, '{}'::text[], '{}'::text[], NULL, NULL WHERE $2::uuid IS NULL
      ), inserted AS (
        INSERT INTO portal_objects (id, parent_id, slug, ancestor_ids, depth, created_at, updated_at, deleted_at,
                                    org_id, visibility, created_by, effective_visibility, share_readers,
                                    share_editors, read_principals, ${insert.columns.join(', ')})
        SELECT $1, $2, $3, parent.ancestor_ids, parent.depth, $4, $4,
               CASE WHEN parent.under_tombstone THEN $4::timestamptz END,
               $5, $6, $7, parent.effective_visibility, parent.share_readers, parent.share_editors,
               portal_read_principals($5, $7, parent.effective_visibility, parent.share_readers),
               ${insert.values.join(', ')}
          FROM parent
        ON CONFLICT ${arbiter === 'primary-key' ? '(id) ' : ''}DO NOTHING
        RETURNING deleted_at IS NULL AS live
      ), counted AS (
        -- By the parameter, not a join with \`inserted\`: on a table without statistics yet (a fresh
        -- rebuild) the planner would scan every row for the join.
        UPDATE portal_objects SET child_count = child_count + 1
         WHERE id = $2 AND deleted_at IS NULL AND EXISTS (SELECT 1 FROM inserted WHERE live)
      )${insert.alongside ? `, ${insert.alongside}` : ''}
      -- The statement's snapshot predates its own insert: \`existed\` means a replay, not this insert.
      SELECT (SELECT count(*) FROM parent)::int AS placed, (SELECT count(*) FROM inserted)::int AS inserted,
             EXISTS (SELECT 1 FROM portal_objects WHERE id = $1) AS existed`,
  });
  return {
    firstTry: statement('any-unique-index'),
    byId: statement('primary-key'),
    ownValues: insert.ownValues,
  };
}

export interface NewObject extends CreatedAccess {
  readonly id: string;
  readonly parentId: string | null;
  readonly title: string;
  readonly occurredAt: string;
}

function valuesOf(statements: PlacedInsertStatements, object: NewObjectRow, slug: string): unknown[] {
  return [
    object.id,
    object.parentId,
    slug,
    object.occurredAt,
    object.orgId,
    object.visibility,
    object.createdBy,
    ...statements.ownValues(object),
  ];
}

/**
 * Inserts the object with a slug unique among its live siblings (at root level: those of its
 * organization), once: a replayed create finds its row and changes nothing. One round trip unless the
 * plain slug is taken.
 */
export async function insertPlaced(
  sql: Sql,
  statements: PlacedInsertStatements,
  object: NewObjectRow,
): Promise<void> {
  // Most titles are unique among their siblings: try the plain slug first, look further only if refused.
  const first = await sql.query<{ placed: number; inserted: number; existed: boolean }>({
    ...statements.firstTry,
    values: valuesOf(statements, object, slugify(object.title)),
  });
  if (first.rows[0]?.placed !== 1) {
    throw new Error(`parent ${object.parentId} of ${object.id} is not in the read model`);
  }
  if (first.rows[0].inserted === 1 || first.rows[0].existed) return;
  await insertWithFreeSlug(sql, statements, object);
}

/** Inserts the object whose plain slug a live sibling holds, with the first free candidate. */
export async function insertWithFreeSlug(
  sql: Sql,
  statements: PlacedInsertStatements,
  object: NewObjectRow,
): Promise<void> {
  const slug = await assignSlug(sql, {
    parentId: object.parentId,
    orgId: object.orgId,
    base: slugify(object.title),
    objectId: object.id,
    current: null,
  });
  await sql.query({ ...statements.byId, values: valuesOf(statements, object, slug) });
}
