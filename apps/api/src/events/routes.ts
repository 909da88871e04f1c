import type { Router, Request, RequestHandler, Response } from 'express';
import { eventPositionSchema, eventsQuerySchema } from '@portal/contracts';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { HttpProblem } from '../http/problem.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { SseConnection, type SseSink } from './sse-connection.js';
import { commentFrame, retryFrame } from './sse-frames.js';
import type { FeedClient } from './change-feed-hub.js';

/** How long an EventSource waits before reconnecting after the stream ends (shutdown, lifetime, drop). */
const RECONNECT_DELAY_MS = 2_000;

/** `Last-Event-ID` (what EventSource sends on reconnect), else `?lastEventId=` for polyfills. */
function lastEventIdOf(req: Request): string | null {
  const header = req.get('last-event-id');
  if (header !== undefined && header !== '')
    return parseInput(eventPositionSchema, header, 'Last-Event-ID header');
  return parseInput(eventsQuerySchema, req.query, 'query').lastEventId ?? null;
}

function openStream(req: Request, res: Response): void {
  res.status(200);
  res.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    // nginx and similar proxies would otherwise hold the frames back to fill their buffer.
    'X-Accel-Buffering': 'no',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
  // Frames are small and latency is the point.
  req.socket.setNoDelay(true);
  res.write(retryFrame(RECONNECT_DELAY_MS) + commentFrame('connected'));
}

/**
 * The response as the feed writes to it. Ending the stream also closes the connection: an idle
 * keep-alive socket would otherwise hold a shutting-down server open until its grace period ends.
 */
function sinkOf(res: Response): SseSink {
  return {
    write: (chunk) => res.write(chunk),
    get writableLength() {
      return res.writableLength;
    },
    end: () => {
      // Taken now: a finished response lets go of its socket.
      const socket = res.socket;
      res.end(() => {
        socket?.end();
      });
    },
    destroy: () => {
      res.destroy();
    },
  };
}

/** `GET /api/v1/events`: changes to the objects the caller may read, as Server-Sent Events. */
function streamHandler(deps: ApiDependencies): RequestHandler {
  const feed = deps.changeFeed;
  return async (req, res) => {
    // A client may go away during an await below (or already did, while it was authenticated): its
    // 'close' then fires before any listener the stream adds, so note it now and check after each await.
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    // Not `req.destroyed`: a request whose body was read (a GET may carry one) is destroyed by then,
    // and the client is still there waiting for its stream.
    const gone = (): boolean => closed || res.destroyed || !res.socket || res.socket.destroyed;
    const lastEventId = lastEventIdOf(req);
    if (!feed.accepting)
      throw new HttpProblem(503, 'the change feed is shutting down; reconnect', 'SHUTTING_DOWN');
    // Before the stream opens, so a database failure is still an ordinary error answer.
    const start = await feed.startOf(lastEventId);
    if (gone()) return;
    if (req.method === 'HEAD') {
      res.status(200).type('text/event-stream').set('Cache-Control', 'no-store').end();
      return;
    }
    openStream(req, res);
    const client: FeedClient = {
      connection: new SseConnection(sinkOf(res), feed.settings.maxBufferBytes),
      principals: principalsOf(req),
    };
    res.on('close', () => {
      feed.detach(client);
    });
    await feed.follow(client, start);
  };
}

export function eventRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/events', { get: streamHandler(deps) });
  return router;
}
