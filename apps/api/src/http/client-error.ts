import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@portal/platform';

interface ClientProblem {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** What Node's HTTP parser refused, in the words of the API's error body. */
export function clientProblemOf(code: string | undefined): ClientProblem {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'HEADERS_TOO_LARGE',
        message: 'the request line and headers are larger than the server accepts (16 KiB)',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, code: 'REQUEST_TIMEOUT', message: 'the request was not received in time' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, code: 'MALFORMED_REQUEST', message: 'the request names an unknown HTTP method' };
    case 'HPE_INVALID_HEADER_TOKEN':
      return {
        status: 400,
        code: 'MALFORMED_REQUEST',
        message: 'a header name or value holds a character HTTP does not allow (a control character)',
      };
    case 'HPE_INVALID_URL':
      return {
        status: 400,
        code: 'MALFORMED_REQUEST',
        message: 'the request target is not a valid URL path',
      };
    case undefined:
    default:
      return { status: 400, code: 'MALFORMED_REQUEST', message: 'the request is not well-formed HTTP/1.1' };
  }
}

/** A complete HTTP/1.1 response with the API's JSON error body, closing the connection. */
export function clientErrorResponse(problem: ClientProblem, requestId: string): string {
  const body = JSON.stringify({ message: problem.message, code: problem.code });
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The `http.Server` 'clientError' listener: a request Node's parser refuses (headers over 16 KiB, an
 * unknown method, a control character in a header) never reaches express, and Node would answer with
 * an empty body. This answers with the API's `{ message, code }` instead, then closes the connection,
 * since the rest of its bytes cannot be trusted. Nothing of the request is logged but the parser's code:
 * its bytes may carry credentials.
 */
export function answerClientError(
  logger: Logger,
): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    // The peer is gone, or a response on this connection has begun (a request pipelined behind it
    // failed): nothing more can be said. Earlier responses of a keep-alive connection do not count:
    // the connection is between two requests, as Node's own handler checks.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const problem = clientProblemOf(error.code);
    const requestId = randomUUID();
    logger.warn({ reqId: requestId, parserCode: error.code, status: problem.status }, 'malformed request');
    socket.end(clientErrorResponse(problem, requestId));
  };
}
