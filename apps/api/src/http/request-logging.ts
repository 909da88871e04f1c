import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { Logger } from '@portal/platform';

const REQUEST_ID_HEADER = 'x-request-id';
/** Ids a caller may choose (request and correlation ids): safe to log and to store in event metadata. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * pino-http with a request id on every line: the caller's `X-Request-Id` when it is safe to log,
 * a fresh UUID otherwise. The id is echoed in the response and stored in event metadata.
 */
export function requestLogging(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers[REQUEST_ID_HEADER];
      const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, error) => {
      if (error || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      return 'info';
    },
    // Ours read the request and response themselves: wrapped (pino-http's default), each first went
    // through the standard serializers, which copy every header of both, per request, for lines that
    // log three fields of one and one of the other.
    wrapSerializers: false,
    serializers: {
      req: (req: { id: unknown; method: unknown; url: unknown }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
      }),
      res: (res: { statusCode: unknown }) => ({ statusCode: res.statusCode }),
    },
  });
}
