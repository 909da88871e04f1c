import { slugify, type PortalObjectUpdated, type RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { applyPortalObjectEvent } from './handlers.js';
import {
  CANDIDATE_PREFIXES,
  candidatePrefixes,
  chosenSlugSql,
  RENAME_CANDIDATES,
  renameCandidates,
} from './rename-statement.js';
import { recomputeExtentsOfUpdated } from './run-updates.js';
import {
  changedColumnArrays,
  changedColumnAssignments,
  changedColumnNames,
  changedColumnValues,
} from './update-columns.js';
import { onePerObject } from './one-per-object.js';
import { siblingGroupSql } from './sibling-group.js';

/**
 * Every rename of a run in one statement: the single rename's choice of slug (`chosenSlugSql`) for each row of
 * `unnest`, its candidates and prefixes cut out of two flat arrays by its place in the list (16 and 9
 * per rename). `$1` ids, `$2` revisions, `$3` occurredAt, `$4` titles, `$5` candidates, `$6` prefixes,
 * then the other changed columns as the run's updates carry them (update-columns.ts), so any mix of
 * changed columns shares the one statement and its cached plan.
 *
 * Each row finds its object by key and the siblings holding its candidates (or its current slug) by the
 * unique slug index, as the single rename does. Answers, per rename, what is left to do: the items whose
 * metadata it changed (their parents' extents are due), the renames whose 16 candidates are all taken
 * (`look further`), and the objects the read model lacks.
 */
const renameRun = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[], $4::text[], ${changedColumnArrays(7)})
                  WITH ORDINALITY AS u(id, revision, at, title, ${changedColumnNames}, n)
  ), target AS (
    SELECT u.n, o.id, o.slug, u.revision, ${siblingGroupSql('o.parent_id', 'o.org_id')} AS sibling_group,
           regexp_match(o.slug, '^(.*)-([1-9][0-9]{0,8})$') AS suffix,
           ($5::text[])[(u.n::integer - 1) * ${RENAME_CANDIDATES} + 1 : u.n::integer * ${RENAME_CANDIDATES}] AS candidates,
           ($6::text[])[(u.n::integer - 1) * ${CANDIDATE_PREFIXES} + 1 : u.n::integer * ${CANDIDATE_PREFIXES}] AS prefixes
      FROM input u JOIN portal_objects o ON o.id = u.id
     WHERE o.version < u.revision
  ), taken AS (
    SELECT t.n, s.slug FROM target t JOIN portal_objects s
        ON ${siblingGroupSql('s.parent_id', 's.org_id')} = t.sibling_group
       AND s.deleted_at IS NULL AND s.id <> t.id AND s.slug = ANY(t.candidates || t.slug)
  ), chosen AS (
    SELECT t.n, t.id, t.revision,
           ${chosenSlugSql({ target: 't', candidates: 't.candidates', prefixes: 't.prefixes', taken: 'SELECT k.slug FROM taken k WHERE k.n = t.n' })} AS slug
      FROM target t
  ), changed AS (
    UPDATE portal_objects o
       SET version = u.revision, updated_at = u.at, slug = c.slug, title = u.title,
           ${changedColumnAssignments}
      FROM chosen c JOIN input u ON u.n = c.n
     WHERE o.id = c.id AND o.version < c.revision AND c.slug IS NOT NULL
    RETURNING o.id, u.set_metadata
  )
  SELECT id, 'metadata' AS due FROM changed WHERE set_metadata
  UNION ALL
  SELECT id, 'look further' FROM chosen WHERE slug IS NULL
  UNION ALL
  SELECT u.id, 'missing' FROM input u WHERE NOT EXISTS (SELECT 1 FROM portal_objects o WHERE o.id = u.id)`;

type RenameDue = 'metadata' | 'look further' | 'missing';

/**
 * Applies the renames of a run (updates with a title, maybe with other changes), leaving the rows that
 * applying each through the single handler in event order leaves: one statement for all of them, then
 * the single handler for each rename whose first 16 candidates were all taken (`assignSlug` looks
 * further, rename-statement.ts), then one recompute of the extents of the parents of ready items whose
 * metadata changed (as the single handler does after each).
 *
 * What the caller guarantees, so that applying them at once equals event order:
 * - no two renames are of the same object;
 * - among the same siblings (the parent, at root level the organization), no two events of the run take
 *   or free slugs of the same family (`alpha`, `alpha-2`; the new title's base and the slug held before):
 *   each rename's choice then depends on no other event of the run, and no two rows of the statement can
 *   meet on the unique slug index;
 * - nothing else in the run changes the renamed rows (their place, their slug, their tombstone).
 * A rename applied before (its version at or past the revision) changes nothing, as one by one.
 */
export async function applyRenamesInRun(
  sql: Sql,
  renames: readonly (readonly [PortalObjectUpdated, RecordedEvent])[],
): Promise<void> {
  if (renames.length === 0) return;
  onePerObject(renames, (id) => `two renames of ${id} in one run`);
  const candidates: string[] = [];
  const prefixes: string[] = [];
  const titles = renames.map(([event]) => {
    const { title } = event.data.changes;
    if (title === undefined) throw new Error(`update of ${event.data.id} has no title: not a rename`);
    const base = slugify(title);
    candidates.push(...renameCandidates(base));
    prefixes.push(...candidatePrefixes(base));
    return title;
  });
  const result = await sql.query<{ id: string; due: RenameDue }>({
    name: 'projector_portal_objects_rename_run',
    text: renameRun,
    values: [
      renames.map(([event]) => event.data.id),
      renames.map(([, recorded]) => recorded.revision.toString()),
      renames.map(([, recorded]) => recorded.metadata.occurredAt),
      titles,
      candidates,
      prefixes,
      ...changedColumnValues(renames),
    ],
  });
  const due = (kind: RenameDue): Set<string> =>
    new Set(result.rows.filter((row) => row.due === kind).map((row) => row.id));
  const missing = renames.find(([event]) => due('missing').has(event.data.id));
  if (missing) throw new Error(`${missing[0].data.kind} ${missing[0].data.id} is not in the read model`);
  // A full window: rare, and independent of the other renames (no shared slug family), so it may follow.
  const lookingFurther = due('look further');
  for (const [event, recorded] of renames) {
    if (lookingFurther.has(event.data.id)) await applyPortalObjectEvent(sql, event, recorded);
  }
  // The single handler recomputed those it applied itself.
  await recomputeExtentsOfUpdated(sql, [...due('metadata')]);
}
