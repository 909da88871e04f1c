import type { Response } from 'express';

/**
 * Answers JSON already encoded, as it is: its bytes go to the socket behind the headers, uncopied
 * (express's `send` adds what such an answer does not need: a string's encoding, a freshness check). For
 * an answer without a validator of its own (no `ETag`, so never a 304); a HEAD gets no body (node drops
 * it) and the same `Content-Length`.
 */
export function sendJson(res: Response, type: string, json: Buffer): void {
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', json.length);
  res.end(json);
}
