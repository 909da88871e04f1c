import { AUDIT_CSV_COLUMNS, auditPageSchema, auditQuerySchema, MAX_CSV_EXPORT_ROWS } from '../audit.js';
import type { Route } from './route.js';

const csvDescription = `The same events as CSV (RFC 4180, CRLF, a header row: ${AUDIT_CSV_COLUMNS.map((column) => `\`${column}\``).join(', ')}; \`data\` is the event's data as compact JSON). A field starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return gets a leading \`'\` so spreadsheets do not run it as a formula. Sent as an attachment (\`Content-Disposition\`), streamed; up to \`limit\` (default and most ${MAX_CSV_EXPORT_ROWS}) rows, and when more match, \`Link: <…>; rel="next"\` names the next export.`;

/** The organization's audit trail (docs/audit.md). */
export const auditRoutes: readonly Route[] = [
  {
    method: 'get',
    path: '/api/v1/audit/events',
    operationId: 'listAuditEvents',
    summary: "List the active organization's audit events",
    description:
      "Every event of the caller's active organization — its portal objects' changes and its own (members, invitations, API keys) — oldest first, each with its position, type, time, actor (id and today's display name), object and data. For the organization's admins and owners (others 403). Filters combine: `from`/`to` (occurredAt, from inclusive, to exclusive), `actorId`, `type` (comma-separated), `objectId` (with `subtree=true`, also everything that was below it when the event happened). Another organization's events never appear, whatever the filters. The cursor names an event position, so it stays good across read-model rebuilds. `Accept: text/csv` answers a CSV export (see the 200 response); an `Accept` allowing neither JSON nor CSV answers 406.",
    tag: 'audit',
    query: auditQuerySchema,
    responses: {
      200: {
        description: 'A page of the audit feed.',
        schema: auditPageSchema,
        otherMediaTypes: { 'text/csv': { schema: { type: 'string', description: csvDescription } } },
      },
    },
    errors: [400, 401, 403, 406, 503],
  },
];
