import { createHash } from 'node:crypto';
import { slugCandidate } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';

const noScope = '00000000-0000-0000-0000-000000000000';

/** How many of the title's candidates the statement tries; past them the handler looks further. */
export const RENAME_CANDIDATES = 16;

/** The first candidates the new title gives (`base`, `base-2`, …), in order. */
export function renameCandidates(base: string): string[] {
  return Array.from({ length: RENAME_CANDIDATES }, (_, index) => slugCandidate(base, index + 1));
}

/**
 * An update that takes a new title, slug lookups included, in one statement. `$1` id, `$2` revision,
 * `$3` occurredAt, `$4` the title's first candidates, then the assignments' values. The slug is the one
 * `assignSlug` gives: the current one when it is one of the title's candidates and no live sibling holds
 * it, else the first candidate no live sibling holds (the unique index, one lookup for all of them).
 *
 * It changes nothing and says so (`applied` false while `due`) when it cannot tell that slug from its
 * window: the current slug may be a candidate past the window (it ends in a number), or every candidate
 * of the window is taken. The handler then reads the row and looks further, as before.
 */
export function renameSql(assignments: readonly string[]): string {
  return `
  WITH target AS (
    SELECT o.id, o.slug, o.version, COALESCE(o.parent_id, o.org_id, '${noScope}'::uuid) AS sibling_group
      FROM portal_objects o WHERE o.id = $1
  ), taken AS (
    SELECT s.slug FROM portal_objects s JOIN target t
        ON COALESCE(s.parent_id, s.org_id, '${noScope}'::uuid) = t.sibling_group
     WHERE s.deleted_at IS NULL AND s.id <> t.id AND s.slug = ANY($4::text[] || t.slug)
  ), chosen AS (
    SELECT COALESCE(
             (SELECT t.slug WHERE t.slug = ANY($4::text[]) AND t.slug NOT IN (SELECT slug FROM taken)),
             (SELECT c.slug FROM unnest($4::text[]) WITH ORDINALITY AS c(slug, n)
               WHERE c.slug NOT IN (SELECT slug FROM taken) ORDER BY c.n LIMIT 1)) AS slug
      FROM target t
     WHERE t.version < $2 AND NOT (t.slug <> ALL($4::text[]) AND t.slug ~ '-[1-9][0-9]{0,8}$')
  ), changed AS (
    UPDATE portal_objects o
       SET version = $2, updated_at = $3, slug = c.slug${assignments.map((assignment) => `, ${assignment}`).join('')}
      FROM chosen c
     WHERE o.id = $1 AND o.version < $2 AND c.slug IS NOT NULL
    RETURNING o.id
  )
  SELECT EXISTS (SELECT 1 FROM target) AS known, EXISTS (SELECT 1 FROM target WHERE version < $2) AS due,
         EXISTS (SELECT 1 FROM changed) AS applied`;
}

export type RenameOutcome = 'applied' | 'already applied' | 'look further';

/** Sends the rename; a missing row is a broken read model, so it fails loudly. */
export async function sendRename(
  sql: Sql,
  target: { readonly id: string; readonly kind: string },
  assignments: readonly string[],
  values: readonly unknown[],
): Promise<RenameOutcome> {
  const text = renameSql(assignments);
  const result = await sql.query<{ known: boolean; due: boolean; applied: boolean }>({
    // Prepared per set of changed columns (a few dozen at most), so each is parsed once per session
    // and its plan cached as the batch's plan policy allows.
    name: `projector_portal_objects_rename_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`,
    text,
    values: [...values],
  });
  const outcome = result.rows[0];
  if (outcome?.known !== true) throw new Error(`${target.kind} ${target.id} is not in the read model`);
  if (!outcome.due) return 'already applied';
  return outcome.applied ? 'applied' : 'look further';
}
