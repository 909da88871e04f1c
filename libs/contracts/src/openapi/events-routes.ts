import { eventsQuerySchema } from '../events.js';
import type { Route } from './route.js';
import { schemaRef } from './schemas.js';

const streamDescription = [
  "A Server-Sent Events stream (`text/event-stream`) of changes to the portal objects the caller may read: `public` ones for an anonymous caller, and what the credential's user and active organization may read otherwise (the principals are taken when the stream opens; a stream ends after `SSE_MAX_CONNECTION_MS` so the client reconnects with a current credential).",
  'A change is sent once the read models show it: a GET of the object when its event arrives answers the new state.',
  'Each change is one event: `id:` the event position (stable across read-model rebuilds), `event:` the event type (`CatalogCreated`, `PortalObjectUpdated`, …), `data:` a `ChangeEvent` JSON object.',
  'Resuming: EventSource sends the last `id:` it got as `Last-Event-ID` on reconnect (or pass `?lastEventId=`); the stream first replays what was missed, then goes live, with no gap and no duplicate between the two. A resume point the service does not hold, or one further behind than `SSE_REPLAY_MAX_EVENTS` changes, gets `event: reset` (`data:` a `FeedReset`) whose `id:` is where the live changes continue: reload what you show, then keep reading. A malformed one answers 400.',
  'A comment line `: heartbeat` comes every `SSE_HEARTBEAT_MS` (15 s). A client that reads slower than changes come, until more than `SSE_MAX_BUFFER_BYTES` (1 MiB) wait unsent, is disconnected; it reconnects and catches up with `Last-Event-ID`.',
].join('\n\n');

export const eventRoutes: readonly Route[] = [
  {
    method: 'get',
    path: '/api/v1/events',
    operationId: 'followChanges',
    summary: 'Follow changes as Server-Sent Events',
    description: streamDescription,
    tag: 'events',
    public: true,
    query: eventsQuerySchema,
    responses: {
      200: {
        description:
          'The stream: `retry:`, then change events (`data:` ChangeEvent), `reset` events (`data:` FeedReset) and heartbeat comments, until the server ends it. Headers: `Cache-Control: no-store`, `X-Accel-Buffering: no`.',
        otherMediaTypes: {
          'text/event-stream': {
            schema: { type: 'string', description: 'Server-Sent Events (WHATWG HTML §9.2).' },
            'x-event-data': { oneOf: [{ $ref: schemaRef('ChangeEvent') }, { $ref: schemaRef('FeedReset') }] },
          },
        },
      },
    },
    errors: [400, 401, 503],
  },
];
