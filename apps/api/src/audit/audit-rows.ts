import type { AuditEvent, AuditQuery } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import type { AuditRow } from '@portal/read-model-audit';
import { QueryParams } from '@portal/read-model-core';
import { auditConditions } from './audit-filter.js';

export function auditEventOf(row: AuditRow): AuditEvent {
  return {
    position: row.position,
    type: row.type,
    occurredAt: row.occurred_at.toISOString(),
    actor: { id: row.actor_id, name: row.actor_name },
    object: row.object_id === null ? null : { id: row.object_id, kind: row.object_kind },
    revision: Number(row.revision),
    data: row.data,
    operator: row.operator,
  };
}

/** Which rows of the feed: after `afterSeq`, up to `throughSeq` when given, at most `rows`. */
export interface AuditRange {
  readonly afterSeq: string;
  readonly throughSeq?: string;
  readonly rows: number;
}

/** Rows of the organization's feed in projection order, with the actor's display name (as it is today). */
export async function auditRows(
  pool: Pool,
  orgId: string,
  query: AuditQuery,
  range: AuditRange,
): Promise<AuditRow[]> {
  const params = new QueryParams();
  const conditions = auditConditions(orgId, query, params);
  conditions.push(`a.seq > ${params.add(range.afterSeq, 'bigint')}`);
  if (range.throughSeq !== undefined) conditions.push(`a.seq <= ${params.add(range.throughSeq, 'bigint')}`);
  const result = await pool.query<AuditRow>(
    `SELECT a.seq::text, a.position, a.type, a.occurred_at, a.actor_id, u.name AS actor_name, a.object_id,
            a.object_kind, a.revision::text, a.data, a.metadata->>'operator' AS operator
       FROM read.audit_events a
       LEFT JOIN read.users u ON u.id = a.actor_id
      WHERE ${conditions.join(' AND ')}
      ORDER BY a.seq
      LIMIT ${params.add(range.rows, 'int')}`,
    params.values,
  );
  return result.rows;
}

/**
 * Where an export of `limit` rows after `afterSeq` ends: the `seq` and position of its last row, and
 * whether the feed goes on past it. With fewer rows than `limit`, it ends at the newest row now, so rows
 * projected while the export streams wait for the next one.
 */
export async function exportBoundary(
  pool: Pool,
  orgId: string,
  query: AuditQuery,
  afterSeq: string,
  limit: number,
): Promise<{ readonly throughSeq: string; readonly nextPosition: string | null }> {
  const params = new QueryParams();
  const conditions = auditConditions(orgId, query, params);
  conditions.push(`a.seq > ${params.add(afterSeq, 'bigint')}`);
  const result = await pool.query<{ seq: string; position: string }>(
    `SELECT a.seq::text, a.position FROM read.audit_events a
      WHERE ${conditions.join(' AND ')}
      ORDER BY a.seq OFFSET ${params.add(limit - 1, 'int')} LIMIT 2`,
    params.values,
  );
  const [last, beyond] = result.rows;
  if (last) return { throughSeq: last.seq, nextPosition: beyond ? last.position : null };
  const newest = await pool.query<{ seq: string }>(
    'SELECT COALESCE(max(seq), 0)::text AS seq FROM read.audit_events',
  );
  return { throughSeq: newest.rows[0]?.seq ?? '0', nextPosition: null };
}
