import type { Router, Request } from 'express';
import {
  auditQuerySchema,
  DEFAULT_PAGE_LIMIT,
  MAX_CSV_EXPORT_ROWS,
  MAX_PAGE_LIMIT,
  type AuditQuery,
} from '@portal/contracts';
import { requireRole } from '@portal/domain';
import { callerOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { baseUrlOf } from '../http/base-url.js';
import { listPage } from '../http/list-page.js';
import { HttpProblem } from '../http/problem.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { auditCursorOf, seqAfterCursor } from './audit-cursor.js';
import { auditEventOf, auditRows } from './audit-rows.js';
import { streamAuditCsv } from './csv-export.js';

const MEDIA_TYPES = ['application/json', 'text/csv'];

/** The organization whose feed this is: the caller's active one, for its admins and owners only. */
function auditedOrganization(req: Request): string {
  const caller = callerOf(req);
  requireRole(caller, 'admin', 'read the audit feed');
  if (caller.orgId === null) throw new Error('requireRole lets no caller without an organization through');
  return caller.orgId;
}

function limitOf(query: AuditQuery, csv: boolean): number {
  if (csv) return query.limit ?? MAX_CSV_EXPORT_ROWS;
  if (query.limit !== undefined && query.limit > MAX_PAGE_LIMIT) {
    throw new HttpProblem(
      400,
      `invalid query: limit: must be an integer from 1 to ${MAX_PAGE_LIMIT} for JSON (to ${MAX_CSV_EXPORT_ROWS} for text/csv)`,
      'VALIDATION_FAILED',
      [{ path: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_LIMIT} for JSON` }],
    );
  }
  return query.limit ?? DEFAULT_PAGE_LIMIT;
}

/** The same request with another cursor: the query as sent (lists stay comma-separated). */
function urlWithCursor(req: Request, deps: ApiDependencies, cursor: string): string {
  const url = new URL(`${baseUrlOf(req, deps.config)}${req.baseUrl}${req.path}`);
  for (const [name, value] of Object.entries(req.query)) {
    if (typeof value === 'string' && name !== 'cursor') url.searchParams.set(name, value);
  }
  url.searchParams.set('cursor', cursor);
  return url.toString();
}

/**
 * `GET /api/v1/audit/events`: the active organization's audit trail, oldest first, as JSON pages or,
 * with `Accept: text/csv`, as a CSV export (docs/audit.md).
 */
export function auditRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/audit/events', {
    get: async (req, res) => {
      const orgId = auditedOrganization(req);
      res.vary('Accept');
      const mediaType = req.accepts(MEDIA_TYPES);
      if (mediaType === false) {
        throw new HttpProblem(
          406,
          `the audit feed is served as ${MEDIA_TYPES.join(' or ')}`,
          'NOT_ACCEPTABLE',
        );
      }
      const query = parseInput(auditQuerySchema, req.query, 'query');
      const csv = mediaType === 'text/csv';
      const limit = limitOf(query, csv);
      if (query.from !== undefined && query.to !== undefined && query.from >= query.to) {
        throw new HttpProblem(400, 'invalid query: from must be before to', 'VALIDATION_FAILED', [
          { path: 'from', message: 'must be before to' },
        ]);
      }
      if (query.subtree !== undefined && query.objectId === undefined) {
        throw new HttpProblem(400, 'invalid query: subtree needs objectId', 'VALIDATION_FAILED', [
          { path: 'subtree', message: 'needs objectId' },
        ]);
      }
      const afterSeq = await seqAfterCursor(deps.pool, orgId, query.cursor);
      if (csv) {
        await streamAuditCsv(req, res, {
          pool: deps.pool,
          log: req.log,
          orgId,
          query,
          afterSeq,
          limit,
          nextUrl: (cursor) => urlWithCursor(req, deps, cursor),
        });
        return;
      }
      const rows = await auditRows(deps.pool, orgId, query, { afterSeq, rows: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const next = rows.length > limit && last ? auditCursorOf(last.position) : null;
      res.json(listPage(req, deps.config, { items: page.map(auditEventOf), next }));
    },
  });
  return router;
}
