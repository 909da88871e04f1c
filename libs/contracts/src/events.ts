import { z } from 'zod';
import { idSchema, revisionSchema, timestampSchema } from './common.js';

/** `formatPosition` text: `<commit>.<prepare>`, as `X-Event-Position` carries it. */
const EVENT_POSITION = /^(-1|\d{1,20})\.(-1|\d{1,20})$/;

export const eventPositionSchema = z
  .string()
  .regex(EVENT_POSITION, { error: 'expected an event position as the feed sent it in `id:`' })
  .meta({
    description:
      'The event\'s place in the global order (`X-Event-Position`), e.g. `"1234.1234"`; the SSE `id:`. Stable across read-model rebuilds.',
  });

const objectKinds = ['catalog', 'collection', 'item'] as const;

/** The `data:` of one change event of `GET /api/v1/events` (its `event:` is `type`). */
export const changeEventSchema = z
  .object({
    objectId: idSchema,
    kind: z.enum(objectKinds),
    type: z.string().meta({
      description:
        'The event type: `CatalogCreated`, `CollectionCreated`, `ItemUploadStarted`, `ItemRegistered`, `PortalObjectUpdated`, `PortalObjectMoved`, `PortalObjectDeleted`, `VisibilityChanged`, `ObjectShared`, `ObjectUnshared`, the upload events, …',
    }),
    revision: revisionSchema,
    position: eventPositionSchema,
    occurredAt: timestampSchema,
    actorId: z
      .uuid()
      .nullable()
      .meta({ description: 'The user who made the change; `null` for system work.' }),
  })
  .meta({
    description:
      'A change to a portal object the caller may read, sent once the read models show it: a GET of the object answers the new state.',
  });
export type ChangeEvent = z.infer<typeof changeEventSchema>;

export const feedResetReasons = ['unknown-last-event-id', 'too-far-behind'] as const;
export type FeedResetReason = (typeof feedResetReasons)[number];

/** The `data:` of `event: reset`: the feed cannot replay what was missed; refetch, then follow live. */
export const feedResetSchema = z
  .object({
    reason: z.enum(feedResetReasons),
    position: eventPositionSchema
      .nullable()
      .meta({ description: 'Where the live feed continues from (also the `id:`); `null` before any event.' }),
  })
  .meta({
    description:
      '`unknown-last-event-id`: the resume point is not one this service sent; `too-far-behind`: more changes were missed than the feed replays (`SSE_REPLAY_MAX_EVENTS`). Reload what you show, then keep reading: live changes follow.',
  });
export type FeedReset = z.infer<typeof feedResetSchema>;

/** `GET /api/v1/events`: the query form of `Last-Event-ID`, for EventSource polyfills that cannot set headers. */
export const eventsQuerySchema = z.object({
  lastEventId: eventPositionSchema.optional().meta({
    description:
      'Resume after this event, as the `Last-Event-ID` header does (the header wins when both are sent).',
  }),
});
export type EventsQuery = z.infer<typeof eventsQuerySchema>;
