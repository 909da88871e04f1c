import type { ObjectAccess, Share, Visibility } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { expectedAccessOf, type AccessModel, type ExpectedAccess } from './access-model.js';

interface AccessRow {
  id: string;
  ancestor_ids: string[];
  org_id: string | null;
  visibility: Visibility;
  created_by: string | null;
  shares: Share[];
  effective_visibility: Visibility;
  read_principals: string[];
  share_readers: string[];
  share_editors: string[];
}

function ownAccess(row: AccessRow): ObjectAccess {
  // Rebuilt key by key: jsonb keeps an object's keys in an order of its own.
  const shares = row.shares.map(({ principal, permission }) => ({
    principal: { type: principal.type, id: principal.id },
    permission,
  }));
  return { orgId: row.org_id, visibility: row.visibility, createdBy: row.created_by, shares };
}

function found(row: AccessRow): ExpectedAccess {
  return {
    ...ownAccess(row),
    effectiveVisibility: row.effective_visibility,
    readPrincipals: row.read_principals,
    shareReaders: row.share_readers,
    shareEditors: row.share_editors,
  };
}

const derivedFields = ['effectiveVisibility', 'readPrincipals', 'shareReaders', 'shareEditors'] as const;
const ownFields = ['orgId', 'visibility', 'createdBy', 'shares'] as const;

function differences(
  id: string,
  actual: ExpectedAccess,
  expected: ExpectedAccess,
  fields: readonly (keyof ExpectedAccess)[],
): string[] {
  return fields
    .filter((field) => JSON.stringify(actual[field]) !== JSON.stringify(expected[field]))
    .map((field) => `${id}: ${field} ${JSON.stringify(actual[field])} ≠ ${JSON.stringify(expected[field])}`);
}

export interface AccessCheck {
  /** Only these rows (their paths are read anyway). */
  readonly ids?: readonly string[];
  /** Expectations folded from the events: then every row's own facts are checked too, and no row is missing. */
  readonly model?: AccessModel;
}

/**
 * Every row's inherited access (effective visibility, read principals, share readers and editors) against
 * `grantsOf` over its path, from the rows' own facts, or, given a model, from the events. Tombstones too:
 * the projector keeps them right, so that any event order leaves every row the same. One line per
 * disagreement (`<id>: <field> <found> ≠ <expected>`).
 */
export async function accessInconsistencies(
  pool: Pool,
  schema: string,
  check: AccessCheck = {},
): Promise<string[]> {
  const result = await pool.query<AccessRow>(
    `SELECT id, ancestor_ids, org_id, visibility, created_by, shares, effective_visibility, read_principals,
            share_readers, share_editors
       FROM "${schema}".portal_objects`,
  );
  const rows = new Map(result.rows.map((row) => [row.id, row]));
  const wanted = check.ids ? new Set(check.ids) : null;
  const problems: string[] = [];
  for (const row of rows.values()) {
    if (wanted && !wanted.has(row.id)) continue;
    if (check.model) {
      problems.push(
        ...differences(row.id, found(row), check.model.expected(row.id), [...ownFields, ...derivedFields]),
      );
      continue;
    }
    const path = [...row.ancestor_ids, row.id].map((id) => rows.get(id));
    if (path.some((step) => step === undefined)) {
      problems.push(`${row.id}: an ancestor is missing`);
      continue;
    }
    const expected = expectedAccessOf(path.flatMap((step) => (step ? [ownAccess(step)] : [])));
    problems.push(...differences(row.id, found(row), expected, derivedFields));
  }
  for (const id of check.model?.ids() ?? []) {
    if (!rows.has(id) && (!wanted || wanted.has(id))) problems.push(`${id}: no row`);
  }
  return problems;
}
