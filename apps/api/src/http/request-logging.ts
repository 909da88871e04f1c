import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '@portal/platform';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- how express's own types are extended
  namespace Express {
    interface Request {
      /** The request's id: the caller's `X-Request-Id` when it is safe to log, else a fresh UUID. */
      id: string;
      /** The process's logger with the request (id, method, URL) on every line. */
      log: Logger;
    }
  }
}

const REQUEST_ID_HEADER = 'x-request-id';
/** Ids a caller may choose (request and correlation ids): safe to log and to store in event metadata. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type CompletionLevel = 'error' | 'warn' | 'info';

function completionLevel(statusCode: number): CompletionLevel {
  if (statusCode >= 500) return 'error';
  if (statusCode >= 400) return 'warn';
  return 'info';
}

function completionMessage(res: Response): string {
  if (res.statusCode >= 500) return 'request errored';
  return res.writableFinished ? 'request completed' : 'request aborted';
}

const REQUEST_LOGGER = Symbol('requestLogger');

interface LoggedRequest {
  [REQUEST_LOGGER]?: () => Logger;
}

/** The request prototypes that have the `log` getter. */
const prototypesWithLog = new WeakSet<object>();

const logGetter = {
  configurable: true,
  get(this: LoggedRequest): Logger {
    const requestLogger = this[REQUEST_LOGGER];
    if (requestLogger === undefined) {
      throw new Error('req.log was read before requestLogging saw the request');
    }
    return requestLogger();
  },
};

/**
 * `req.log` as a getter of the request's prototype, installed once: a getter defined on each request
 * object made every request slower to read (0.03 ms more per request than a plain property). Only on
 * an express app's own request prototype (`app.request`, which holds its `app`): any other prototype
 * (node's `IncomingMessage`, under a bare router) is shared by every server of the process, so such a
 * request gets the getter on itself instead.
 */
function withLogGetter(req: object): void {
  const prototype: unknown = Object.getPrototypeOf(req);
  if (typeof prototype === 'object' && prototype !== null && Object.hasOwn(prototype, 'app')) {
    if (prototypesWithLog.has(prototype)) return;
    Object.defineProperty(prototype, 'log', logGetter);
    prototypesWithLog.add(prototype);
    return;
  }
  Object.defineProperty(req, 'log', logGetter);
}

/**
 * A request id on every request and every log line of it, and one line when the request ends (its
 * status, its time; `warn` for 4xx, `error` for 5xx). The id is echoed in the response
 * (`X-Request-Id`) and stored in event metadata.
 *
 * `req.log`, the logger with the request's id, method and URL bound, is made the first time it is
 * read: pino serializes (and redacts) a child's bindings when it is made, which was a fifth of the
 * CPU of a small request (bench/README.md, "The request log made when a line is written"), and most
 * requests write no line of their own, nor a completion line below `info`.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    withLogGetter(req);
    const given = req.headers[REQUEST_ID_HEADER];
    const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    const startedAt = Date.now();
    // As the request arrived: routers mounted under a path shorten `req.url` while they run.
    const bound = { req: { id, method: req.method, url: req.url } };
    let requestLogger: Logger | undefined;
    (req as LoggedRequest)[REQUEST_LOGGER] = () => (requestLogger ??= logger.child(bound));
    // `close` comes once the answer is sent, or once the client left before it was.
    res.once('close', () => {
      const level = completionLevel(res.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      const fields = { res: { statusCode: res.statusCode }, responseTime: Date.now() - startedAt };
      // Through the request's logger when something made it; else the line carries the request itself,
      // the same fields without a child made for one line.
      if (requestLogger === undefined) logger[level]({ ...bound, ...fields }, completionMessage(res));
      else requestLogger[level](fields, completionMessage(res));
    });
    next();
  };
}
