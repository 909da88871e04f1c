import type { PortalKind } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';

/** What the handlers need to know about an existing row before changing it. */
export interface ObjectRow {
  readonly id: string;
  readonly kind: PortalKind;
  /** `ready` for catalogs and collections; an item's upload status. */
  readonly status: string;
  readonly parentId: string | null;
  /** Its organization (`null`: created before identity); never changes. */
  readonly orgId: string | null;
  readonly title: string;
  readonly slug: string;
  readonly ancestorIds: readonly string[];
  readonly depth: number;
  readonly version: bigint;
  readonly deleted: boolean;
}

interface RawRow {
  id: string;
  kind: PortalKind;
  status: string;
  parent_id: string | null;
  org_id: string | null;
  title: string;
  slug: string;
  ancestor_ids: string[];
  depth: number;
  version: string;
  deleted: boolean;
}

/** Reads one row; `forUpdate` locks it for the rest of the batch transaction. */
export async function findObject(
  sql: Sql,
  id: string,
  options: { forUpdate: boolean },
): Promise<ObjectRow | null> {
  const result = await sql.query<RawRow>({
    name: options.forUpdate ? 'projector_portal_objects_find_for_update' : 'projector_portal_objects_find',
    text: `SELECT id, kind, status, parent_id, org_id, title, slug, ancestor_ids, depth, version::text AS version,
                  deleted_at IS NOT NULL AS deleted
             FROM portal_objects WHERE id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    values: [id],
  });
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    parentId: row.parent_id,
    orgId: row.org_id,
    title: row.title,
    slug: row.slug,
    ancestorIds: row.ancestor_ids,
    depth: row.depth,
    version: BigInt(row.version),
    deleted: row.deleted,
  };
}
