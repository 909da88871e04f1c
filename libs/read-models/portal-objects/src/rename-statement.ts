import { createHash } from 'node:crypto';
import { slugCandidate } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { siblingGroupSql } from './sibling-group.js';

/** How many of the title's candidates the statement tries; past them the handler looks further. */
export const RENAME_CANDIDATES = 16;

/** The first candidates the new title gives (`base`, `base-2`, …), in order. */
export function renameCandidates(base: string): string[] {
  return Array.from({ length: RENAME_CANDIDATES }, (_, index) => slugCandidate(base, index + 1));
}

/** One prefix per number of digits a candidate's number may have (1–9). */
export const CANDIDATE_PREFIXES = 9;

/**
 * What precedes `-<n>` in the candidates of `base` whose number has 1, 2, … 9 digits (the base cut
 * shorter as the number grows): a slug `<prefix>-<n>` with n ≥ 2 derives from `base` exactly when its
 * prefix is the one for its number of digits (`derivesFrom`, slug-assignment.ts).
 */
export function candidatePrefixes(base: string): string[] {
  return Array.from({ length: CANDIDATE_PREFIXES }, (_, index) => {
    const n = index === 0 ? 2 : 10 ** index;
    return slugCandidate(base, n).slice(0, -`-${n}`.length);
  });
}

/**
 * The slug a rename takes, as one SQL expression over its target row (`slug` held today, `suffix` the
 * match of that slug's `-<n>`): the slug held today when it derives from the new title (its first
 * candidate, or a `<prefix>-<n>` of the title's prefixes) and no live sibling holds it, else the first
 * candidate no live sibling holds, else NULL (every candidate taken). `taken` is a query of the slugs
 * live siblings hold among the candidates and today's slug. What `assignSlug` decides, in SQL.
 */
export function chosenSlugSql(options: {
  readonly target: string;
  readonly candidates: string;
  readonly prefixes: string;
  readonly taken: string;
}): string {
  const { target: t, candidates, prefixes, taken } = options;
  return `COALESCE(
             (SELECT ${t}.slug
               WHERE (${t}.slug = (${candidates})[1]
                      OR (${t}.suffix[2]::integer >= 2 AND ${t}.suffix[1] = (${prefixes})[length(${t}.suffix[2])]))
                 AND ${t}.slug NOT IN (${taken})),
             (SELECT c.slug FROM unnest(${candidates}) WITH ORDINALITY AS c(slug, rank)
               WHERE c.slug NOT IN (${taken}) ORDER BY c.rank LIMIT 1))`;
}

/**
 * An update that takes a new title, slug lookups included, in one statement. `$1` id, `$2` revision,
 * `$3` occurredAt, `$4` the title's first candidates, `$5` its candidate prefixes, then the
 * assignments' values. The slug is the one `assignSlug` gives: the current one when it derives from the
 * title and no live sibling holds it, else the first candidate no live sibling holds (one lookup of the
 * unique index for all of them).
 *
 * When every candidate of the window is taken it changes nothing and says so (`applied` false while
 * `due`); the handler then reads the row and looks further, as before.
 */
export function renameSql(assignments: readonly string[]): string {
  return `
  WITH target AS (
    SELECT o.id, o.slug, o.version, ${siblingGroupSql('o.parent_id', 'o.org_id')} AS sibling_group,
           regexp_match(o.slug, '^(.*)-([1-9][0-9]{0,8})$') AS suffix
      FROM portal_objects o WHERE o.id = $1
  ), taken AS (
    SELECT s.slug FROM portal_objects s JOIN target t
        ON ${siblingGroupSql('s.parent_id', 's.org_id')} = t.sibling_group
     WHERE s.deleted_at IS NULL AND s.id <> t.id AND s.slug = ANY($4::text[] || t.slug)
  ), chosen AS (
    SELECT ${chosenSlugSql({ target: 't', candidates: '$4::text[]', prefixes: '$5::text[]', taken: 'SELECT slug FROM taken' })} AS slug
      FROM target t
     WHERE t.version < $2
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
