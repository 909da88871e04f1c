import express, { type RequestHandler } from 'express';
import { HttpProblem } from './problem.js';

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * JSON bodies only: a body of another media type answers 415, malformed JSON 400 and an
 * oversized body 413 (both raised by the parser and mapped by the error middleware).
 */
export function jsonBody(limitBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (hasBody(req) && !req.is(['application/json', 'application/*+json'])) {
      next(new HttpProblem(415, 'request body must be application/json', 'UNSUPPORTED_MEDIA_TYPE'));
      return;
    }
    next();
  };
  return [requireJson, express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'] })];
}
