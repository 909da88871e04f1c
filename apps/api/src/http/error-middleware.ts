import type { ErrorRequestHandler } from 'express';
import { ConcurrencyError, DomainError, type DomainErrorCode } from '@portal/domain';
import { isConnectionError, isInvalidDataError } from '@portal/platform';
import { ObjectStoreRejectedError, ObjectStoreUnavailableError } from '@portal/uploads';
import { STAC_PATH } from '../stac/stac-links.js';
import { HttpProblem } from './problem.js';

const statusOfDomainCode: Record<DomainErrorCode, number> = {
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PARENT_NOT_FOUND: 409,
  INVALID_PARENT_KIND: 409,
  DEPTH_EXCEEDED: 409,
  CYCLE: 409,
  NOT_EMPTY: 409,
  DELETED: 404,
  CONCURRENCY_CONFLICT: 409,
  STALE_REVISION: 412,
  INVALID_COMMAND: 400,
  INVALID_STATE: 409,
  ORGANIZATION_MISMATCH: 409,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  BUSY: 503,
};

/** The client-facing problem an error stands for; `null` for an unexpected error (a 500). */
export function problemOf(error: unknown): HttpProblem | null {
  if (error instanceof HttpProblem) return error;
  // Its message names a stream and revisions: internals a client cannot act on.
  if (error instanceof ConcurrencyError) {
    return new HttpProblem(
      409,
      'another request changed the object at the same moment; read it again and retry',
      error.code,
      undefined,
      { 'Retry-After': '1' },
    );
  }
  if (error instanceof DomainError) {
    const status = statusOfDomainCode[error.code];
    const retry = status === 503 ? { 'Retry-After': '1' } : undefined;
    return new HttpProblem(status, error.message, error.code, undefined, retry);
  }
  if (isConnectionError(error)) {
    return new HttpProblem(
      503,
      'a dependency of the service is unavailable; retry shortly',
      'UNAVAILABLE',
      undefined,
      {
        'Retry-After': '1',
      },
    );
  }
  // Express decodes path parameters; `%ZZ` makes decodeURIComponent throw.
  if (error instanceof URIError) {
    return new HttpProblem(400, 'the path holds a malformed percent-encoding', 'MALFORMED_PATH');
  }
  if (error instanceof ObjectStoreUnavailableError) {
    return new HttpProblem(
      503,
      'object storage is unavailable; retry shortly',
      'STORAGE_UNAVAILABLE',
      undefined,
      {
        'Retry-After': '5',
      },
    );
  }
  // Our request was refused (credentials, a missing bucket): the service is misconfigured, not the client.
  if (error instanceof ObjectStoreRejectedError) {
    return new HttpProblem(502, `object storage refused the request (${error.code})`, 'STORAGE_REFUSED');
  }
  if (isInvalidDataError(error))
    return new HttpProblem(400, 'a value in the request cannot be stored', 'INVALID_VALUE');
  return null;
}

const isStacPath = (path: string) => path === STAC_PATH || path.startsWith(`${STAC_PATH}/`);

/** Maps every error to the message object. Anything unexpected is a 500 with no internals in the body. */
export const errorMiddleware: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const problem = problemOf(error);
  if (!problem) {
    req.log.error({ err: error }, 'unhandled error');
    res.status(500).json({
      message: 'internal error',
      code: 'INTERNAL',
      ...(isStacPath(req.path) ? { description: 'internal error' } : {}),
    });
    return;
  }
  if (problem.status >= 500) req.log.warn({ err: error }, problem.message);
  for (const [name, value] of Object.entries(problem.headers ?? {})) res.setHeader(name, value);
  res.status(problem.status).json({
    message: problem.message,
    ...(problem.code ? { code: problem.code } : {}),
    // STAC clients read `code` and `description` (every STAC answer has a code: the status's name if none).
    ...(isStacPath(req.path)
      ? { code: problem.code ?? `HTTP_${problem.status}`, description: problem.message }
      : {}),
    ...(problem.details ? { details: problem.details } : {}),
  });
};
