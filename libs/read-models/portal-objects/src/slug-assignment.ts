import { slugCandidate } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { siblingGroupSql } from './sibling-group.js';

export interface SlugRequest {
  /** The sibling group: `null` for root level. */
  readonly parentId: string | null;
  /**
   * The object's organization: at root level its siblings are the root-level objects of the same
   * organization only (`null`, from before identity: of no organization). Below a parent all siblings
   * are in the parent's organization, so the parent alone decides.
   */
  readonly orgId: string | null;
  /** `slugify(title)`. */
  readonly base: string;
  /** The object itself: never counts as a sibling. */
  readonly objectId: string;
  /** Its slug today; kept when it still derives from `base` and is free, so a URL survives a move. */
  readonly current: string | null;
}

/**
 * The sibling group as the partial unique index portal_objects_sibling_slug_in_org keys it (the same
 * expression, so lookups use it): the parent, or at root level the organization.
 */
const siblingsTaking = `
  SELECT slug FROM portal_objects
   WHERE ${siblingGroupSql('parent_id', 'org_id')} = ${siblingGroupSql('$1::uuid', '$4::uuid')}
     AND deleted_at IS NULL AND id <> $2 AND slug = ANY($3::text[])`;

async function takenAmong(
  sql: Sql,
  request: SlugRequest,
  candidates: readonly string[],
): Promise<Set<string>> {
  const result = await sql.query<{ slug: string }>({
    name: 'projector_portal_objects_siblings_taking',
    text: siblingsTaking,
    values: [request.parentId, request.objectId, candidates, request.orgId],
  });
  return new Set(result.rows.map((row) => row.slug));
}

/** Whether `slug` is one of `base`'s candidates (`base`, `base-2`, …). */
export function derivesFrom(slug: string, base: string): boolean {
  if (slug === base) return true;
  const suffix = /-([1-9]\d{0,8})$/.exec(slug);
  const n = suffix?.[1] === undefined ? NaN : Number(suffix[1]);
  return n >= 2 && slugCandidate(base, n) === slug;
}

/**
 * The slug the object gets among its live siblings: its current one when that still fits, else the
 * first free candidate. Candidates are checked in growing windows (1, 15, 240, …) against the unique
 * index, so a crowded name costs a few indexed lookups rather than a scan of every sibling.
 */
export async function assignSlug(sql: Sql, request: SlugRequest): Promise<string> {
  if (request.current !== null && derivesFrom(request.current, request.base)) {
    const taken = await takenAmong(sql, request, [request.current]);
    if (!taken.has(request.current)) return request.current;
  }
  let first = 1;
  for (let window = 1; ; window *= 16) {
    const candidates = Array.from({ length: window }, (_, offset) =>
      slugCandidate(request.base, first + offset),
    );
    const taken = await takenAmong(sql, request, candidates);
    const free = candidates.find((candidate) => !taken.has(candidate));
    if (free !== undefined) return free;
    first += window;
  }
}
