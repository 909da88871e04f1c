import { z } from 'zod';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, pageSchema, timestampSchema, type Page } from './common.js';
import { parseAsOf } from './history.js';
import { expected, uuid } from './messages.js';

/** The most rows one `text/csv` export answers; more continue at the `Link: rel="next"` header. */
export const MAX_CSV_EXPORT_ROWS = 100_000;

const objectKinds = ['catalog', 'collection', 'item'] as const;

const TIME_MESSAGE = 'must be an RFC 3339 date-time with a time zone, e.g. 2025-05-01T12:00:00Z';

/** An RFC 3339 instant (offset required), as a `Date`; `Date.parse` alone would take "May 1". */
const instantSchema = z.string({ error: expected('a string') }).transform((text, context) => {
  const parsed = parseAsOf(text);
  if (parsed?.kind !== 'time') {
    context.issues.push({ code: 'custom', message: TIME_MESSAGE, input: text });
    return z.NEVER;
  }
  return parsed.at;
});

const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9]{0,79}$/;
const MAX_TYPES = 50;
const TYPES_MESSAGE = `must be one to ${MAX_TYPES} comma-separated event types, e.g. PortalObjectUpdated,ObjectShared`;

const typesSchema = z.string({ error: expected('a string') }).transform((text, context) => {
  const types = [...new Set(text.split(',').map((type) => type.trim()))];
  if (types.length > MAX_TYPES || !types.every((type) => EVENT_TYPE.test(type))) {
    context.issues.push({ code: 'custom', message: TYPES_MESSAGE, input: text });
    return z.NEVER;
  }
  return types;
});

const limitMessage = `must be an integer from 1 to ${MAX_CSV_EXPORT_ROWS} (to ${MAX_PAGE_LIMIT} for JSON)`;

/**
 * `GET /api/v1/audit/events`. `limit` is checked against the answer's media type by the route: JSON
 * pages stop at `MAX_PAGE_LIMIT`, a CSV export at `MAX_CSV_EXPORT_ROWS`.
 */
export const auditQuerySchema = z.object({
  from: instantSchema.exactOptional().meta({
    description: 'Only events that occurred at or after this RFC 3339 time (`occurredAt`).',
  }),
  to: instantSchema.exactOptional().meta({
    description: 'Only events that occurred before this RFC 3339 time (exclusive).',
  }),
  actorId: uuid().exactOptional().meta({ description: 'Only events caused by this user.' }),
  type: typesSchema.exactOptional().meta({
    description: 'Only events of these types, comma-separated, e.g. `PortalObjectUpdated,ObjectShared`.',
  }),
  objectId: uuid().exactOptional().meta({
    description:
      "Only events of this portal object (with `subtree=true`, also of everything below it at the time). Another organization's object, or an unknown id, gives an empty feed.",
  }),
  subtree: z
    .enum(['true', 'false'], { error: expected('"true" or "false"') })
    .exactOptional()
    .meta({ description: 'With `objectId`: include the events of every object below it. Default false.' }),
  limit: z.coerce
    .number({ error: limitMessage })
    .int({ error: limitMessage })
    .min(1, { error: limitMessage })
    .max(MAX_CSV_EXPORT_ROWS, { error: limitMessage })
    .exactOptional()
    .meta({
      description: `Page size: JSON ${DEFAULT_PAGE_LIMIT} by default, at most ${MAX_PAGE_LIMIT}; \`text/csv\` ${MAX_CSV_EXPORT_ROWS} by default and at most.`,
    }),
  cursor: z
    .string({ error: expected('a string') })
    .min(1, { error: 'must not be empty' })
    .exactOptional()
    .meta({ description: 'Opaque cursor from `next` (JSON) or the `Link: rel="next"` header (CSV).' }),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditActorSchema = z.object({
  id: z
    .uuid()
    .nullable()
    .meta({ description: 'The user who caused the event; null for the service itself.' }),
  name: z
    .string()
    .nullable()
    .meta({ description: "The user's display name today; null when there is no user or it is unknown." }),
});

export const auditObjectSchema = z
  .object({
    id: z.uuid(),
    kind: z
      .enum(objectKinds)
      .nullable()
      .meta({ description: 'Null when the read model has no such object.' }),
  })
  .nullable()
  .meta({ description: "The portal object the event is about; null for the organization's own events." });

export const auditEventSchema = z.object({
  position: z.string().meta({
    description: 'Global position of the event (as `X-Event-Position`): stable, also across rebuilds.',
  }),
  type: z.string().meta({ description: 'Event type, e.g. `PortalObjectUpdated`, `MemberAdded`.' }),
  occurredAt: timestampSchema,
  actor: auditActorSchema,
  object: auditObjectSchema,
  revision: z.int().min(0).meta({ description: "The event's revision in its own stream." }),
  data: z.record(z.string(), z.unknown()).meta({ description: 'The event as recorded.' }),
  operator: z.string().nullable().meta({
    description:
      "The service's operator who caused the event with an admin command (`actor` is then null); null otherwise.",
  }),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditPageSchema = pageSchema(auditEventSchema);
export type AuditPage = Page<AuditEvent>;

/** The columns of the `text/csv` export, in order. */
export const AUDIT_CSV_COLUMNS = [
  'position',
  'occurredAt',
  'type',
  'actorId',
  'actorName',
  'objectId',
  'objectKind',
  'revision',
  'data',
  'operator',
] as const;
