import type { AuditQuery } from '@portal/contracts';
import type { QueryParams } from '@portal/read-model-core';

/**
 * The WHERE conditions of an organization's audit feed (alias `a` on `read.audit_events`). The
 * organization comes first and always: every index of the table starts with it, and no filter can
 * reach past it, so another organization's object id simply matches nothing.
 */
export function auditConditions(orgId: string, query: AuditQuery, params: QueryParams): string[] {
  const conditions = [`a.org_id = ${params.add(orgId, 'uuid')}`];
  if (query.from !== undefined) conditions.push(`a.occurred_at >= ${params.add(query.from, 'timestamptz')}`);
  if (query.to !== undefined) conditions.push(`a.occurred_at < ${params.add(query.to, 'timestamptz')}`);
  if (query.actorId !== undefined) conditions.push(`a.actor_id = ${params.add(query.actorId, 'uuid')}`);
  if (query.type !== undefined) conditions.push(`a.type = ANY(${params.add(query.type, 'text[]')})`);
  if (query.objectId !== undefined) {
    const id = params.add(query.objectId, 'uuid');
    // `ancestor_ids` holds the object's ancestors at the time of each event (the gin index answers `@>`).
    conditions.push(
      query.subtree === 'true'
        ? `(a.object_id = ${id} OR a.ancestor_ids @> ARRAY[${id}])`
        : `a.object_id = ${id}`,
    );
  }
  return conditions;
}
