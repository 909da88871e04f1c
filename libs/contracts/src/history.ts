import { z } from 'zod';
import { idSchema, listQuerySchema, pageSchema, timestampSchema, type Page } from './common.js';

/** What an event changed, by type: before/after per field for updates, the moved parents, and so on. */
export const historyChangeSchema = z.record(z.string(), z.unknown()).meta({
  description:
    '`PortalObjectUpdated`: `{field: {before, after}}` for each changed field; `PortalObjectMoved`: `{fromParentId, toParentId}`; `VisibilityChanged`: `{from, to}`; `ObjectShared`: `{principal, permission, previousPermission}`; `ObjectUnshared`: `{principal, permission}` (all `null` unless the caller may manage its shares); `PortalObjectDeleted`: `{recursive}`; a create: the fields it was created with; an item upload event: its data.',
});

export const historyActorSchema = z.object({
  id: idSchema
    .nullable()
    .meta({ description: 'The user who caused the event; null for the service itself.' }),
  name: z
    .string()
    .nullable()
    .meta({ description: "The user's display name today; null when there is no user or it is unknown." }),
});

export const historyEntrySchema = z.object({
  type: z.string().meta({ description: 'Event type, e.g. `PortalObjectUpdated`.' }),
  revision: z
    .int()
    .min(0)
    .meta({ description: "The event's revision in the object's stream (0 = created)." }),
  position: z.string().meta({ description: 'Global position of the event (as `X-Event-Position`).' }),
  occurredAt: timestampSchema,
  actor: historyActorSchema,
  change: historyChangeSchema,
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyPageSchema = pageSchema(historyEntrySchema);
export type HistoryPage = Page<HistoryEntry>;

/** `GET /api/v1/portal/items/{id}/history`: oldest first, in pages. */
export const historyQuerySchema = listQuerySchema;
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

/** A point in an object's past: a time (events that occurred at or before it) or a revision. */
export type AsOf =
  | { readonly kind: 'time'; readonly at: Date; readonly text: string }
  | { readonly kind: 'revision'; readonly revision: number };

// RFC 3339 `date-time`: a full date, a full time, optional fractions, and a mandatory offset.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;
const REVISION = /^\d{1,15}$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Parses an `asOf` value; `null` for anything else. `Date.parse` alone would take "May 1" or
 * "2024-02-30", so the shape and the calendar are checked first.
 */
export function parseAsOf(text: string): AsOf | null {
  if (REVISION.test(text)) return { kind: 'revision', revision: Number(text) };
  const match = RFC3339.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const at = new Date(Date.parse(text.replace(' ', 'T')));
  return Number.isNaN(at.getTime()) ? null : { kind: 'time', at, text };
}

export const AS_OF_MESSAGE =
  'must be an RFC 3339 date-time with a time zone (e.g. 2024-05-01T12:00:00Z) or a revision (a non-negative integer)';

export const asOfSchema = z
  .string({ error: AS_OF_MESSAGE })
  .transform((text, context) => {
    const asOf = parseAsOf(text);
    if (asOf === null) {
      context.issues.push({ code: 'custom', message: AS_OF_MESSAGE, input: text });
      return z.NEVER;
    }
    return asOf;
  })
  .meta({
    description:
      'Answer the object as it was: at an RFC 3339 time (every event that occurred at or before it) or at a revision of its stream (`0` = as created). Before the object was created, 404.',
  });

/** `GET /api/v1/portal/items/{id}`: without `asOf`, the object as it is now. */
export const portalItemQuerySchema = z.object({ asOf: asOfSchema.exactOptional() });
export type PortalItemQuery = z.infer<typeof portalItemQuerySchema>;
