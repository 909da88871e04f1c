import type { Response } from 'express';

/**
 * Answers JSON already serialized: encoded once, its length from the bytes, sent as they are. What
 * express's `send` adds (a freshness check, the content type parsed and set again) an answer without a
 * validator of its own does not need: no `ETag`, so never a 304. A HEAD gets no body (node drops it)
 * and the same `Content-Length`.
 */
export function sendJson(res: Response, type: string, json: string): void {
  const body = Buffer.from(json);
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
