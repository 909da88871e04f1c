/**
 * The group a slug is unique in: the children of one parent; at root level, the root objects of one
 * organization; and the root objects of no organization (from before identity) as a group of their own,
 * keyed by this id, which no parent or organization has. It is the key of the unique index
 * `portal_objects_sibling_slug_in_org` (schema.sql), where it is written out.
 */
export const NO_SIBLING_GROUP = '00000000-0000-0000-0000-000000000000';

/**
 * A row's sibling group in SQL, from a parent and an organization expression: the index's own
 * expression, so that a lookup by it is a lookup in the index.
 */
export function siblingGroupSql(parent: string, org: string): string {
  return `COALESCE(${parent}, ${org}, '${NO_SIBLING_GROUP}'::uuid)`;
}

/** The same group in memory: what the SQL expression gives for a row. */
export function siblingGroupOf(parentId: string | null, orgId: string | null): string {
  return parentId ?? orgId ?? NO_SIBLING_GROUP;
}
