import express, { type Request, type RequestHandler } from 'express';
import { HttpProblem } from './problem.js';

const JSON_TYPES = ['application/json', 'application/*+json'];
const SUPPORTED_ENCODINGS = 'gzip, deflate, br or identity';

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const INVALID_UTF8 = 'entity.invalid.utf8';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A body-parser error of ours, raised from `verify` before the JSON is parsed. */
function bodyError(status: number, type: string): Error {
  return Object.assign(new Error(type), { status, type });
}

/**
 * JSON between systems is UTF-8 (RFC 8259). Decoding alone would turn each invalid byte into U+FFFD and
 * store that silently, so the raw bytes are checked first: an invalid sequence is a 400, and a body
 * declared in another charset (UTF-16, which the parser would otherwise read) a 415.
 */
function requireUtf8(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding !== 'utf-8') throw bodyError(415, 'charset.unsupported');
  try {
    utf8.decode(body);
  } catch {
    throw bodyError(400, INVALID_UTF8);
  }
}

/** Errors of express's body parser carry `status`, and `type` unless they come from zlib. */
interface BodyParserError {
  readonly status: number;
  readonly type?: string;
  readonly limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    typeof error.status === 'number' &&
    error.status >= 400 &&
    error.status < 500
  );
}

/**
 * What a failure of the body parser tells the client. Every 4xx it raises is the body's fault; a
 * decompression error (a corrupt gzip, deflate or br body) comes from zlib without a `type`, and is a
 * 400 as much as malformed JSON is. Anything else (a 5xx, a bug) is passed on unchanged.
 */
export function bodyProblemOf(error: unknown, req: Request): unknown {
  if (!isBodyParserError(error)) return error;
  // Quoted back to the client: clipped, since a header may be kilobytes long.
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().slice(0, 40);
  switch (error.type) {
    case 'entity.parse.failed':
      return new HttpProblem(400, 'request body is not valid JSON', 'MALFORMED_JSON');
    case 'entity.too.large':
      return new HttpProblem(
        413,
        `request body is larger than ${error.limit ?? 'the limit'} bytes`,
        'BODY_TOO_LARGE',
      );
    case 'encoding.unsupported':
      return new HttpProblem(
        415,
        `Content-Encoding ${encoding} is not supported; use ${SUPPORTED_ENCODINGS}`,
        'UNSUPPORTED_CONTENT_ENCODING',
      );
    case 'charset.unsupported':
      return new HttpProblem(415, 'request body must be UTF-8 JSON', 'UNSUPPORTED_MEDIA_TYPE');
    case INVALID_UTF8:
      return new HttpProblem(
        400,
        'request body is not valid UTF-8; send JSON text encoded as UTF-8',
        'INVALID_UTF8',
      );
    case undefined:
      return new HttpProblem(
        400,
        `request body is not valid ${encoding} data: it cannot be decompressed`,
        'MALFORMED_BODY_ENCODING',
      );
    default:
      return new HttpProblem(400, 'the request body could not be read', 'MALFORMED_BODY');
  }
}

/**
 * JSON bodies only: a body of another media type answers 415, malformed JSON or invalid UTF-8 400, an
 * oversized body (counted after decompression) 413 and a body that does not decompress 400.
 */
export function jsonBody(limitBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (hasBody(req) && !req.is(JSON_TYPES)) {
      next(new HttpProblem(415, 'request body must be application/json', 'UNSUPPORTED_MEDIA_TYPE'));
      return;
    }
    next();
  };
  const parse: RequestHandler = express.json({
    limit: limitBytes,
    type: JSON_TYPES,
    verify: requireUtf8,
  });
  const parseJson: RequestHandler = (req, res, next) => {
    void parse(req, res, (error?: unknown) => {
      next(error === undefined ? undefined : bodyProblemOf(error, req));
    });
  };
  return [requireJson, parseJson];
}
