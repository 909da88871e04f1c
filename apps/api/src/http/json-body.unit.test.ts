import { createServer } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import express from 'express';
import { createLogger } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { useInProcessServers } from '../../test/support/in-process-server.js';
import { errorMiddleware } from './error-middleware.js';
import { jsonBody } from './json-body.js';
import { requestLogging } from './request-logging.js';

const LIMIT = 4096;
const servers = useInProcessServers();

/** The body parser and the error middleware as the API mounts them, and a route echoing the body. */
async function echoServer(): Promise<string> {
  const app = express();
  app.use(requestLogging(createLogger({ name: 'test', level: 'silent' })));
  app.use(jsonBody(LIMIT));
  app.post('/echo', (req, res) => {
    res.json({ received: req.body as unknown });
  });
  app.use(errorMiddleware);
  return servers.start(createServer(app));
}

async function post(
  base: string,
  body: Uint8Array | string,
  headers: Record<string, string>,
): Promise<{ status: number; body: { message?: unknown; code?: unknown; received?: unknown } }> {
  const response = await fetch(`${base}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as { message?: unknown } };
}

const json = JSON.stringify({ title: 'compressed' });
const compressors = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

describe('jsonBody: compressed bodies', () => {
  it.each(Object.entries(compressors))('reads a %s body', async (encoding, compress) => {
    const base = await echoServer();
    const answer = await post(base, compress(json), { 'content-encoding': encoding });
    expect(answer).toEqual({ status: 200, body: { received: { title: 'compressed' } } });
  });

  it.each(Object.keys(compressors))('answers 400, not 500, for a corrupt %s body', async (encoding) => {
    const base = await echoServer();
    const answer = await post(base, 'these bytes are not compressed', { 'content-encoding': encoding });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'MALFORMED_BODY_ENCODING' });
    expect(answer.body.message).toContain(encoding);
  });

  it('answers 400 for a truncated gzip body', async () => {
    const base = await echoServer();
    const truncated = gzipSync(json).subarray(0, 12);
    const answer = await post(base, truncated, { 'content-encoding': 'gzip' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'MALFORMED_BODY_ENCODING' });
  });

  it('answers 413 for a small body that decompresses past the limit', async () => {
    const base = await echoServer();
    const bomb = gzipSync(JSON.stringify({ title: 'x'.repeat(100 * LIMIT) }));
    expect(bomb.length).toBeLessThan(LIMIT);
    const answer = await post(base, bomb, { 'content-encoding': 'gzip' });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'BODY_TOO_LARGE' });
  });

  it('answers 415 naming the encodings it reads for an unsupported one', async () => {
    const base = await echoServer();
    const answer = await post(base, json, { 'content-encoding': 'compress' });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ code: 'UNSUPPORTED_CONTENT_ENCODING' });
    expect(answer.body.message).toContain('gzip, deflate, br');
  });
});

describe('jsonBody: plain bodies', () => {
  it('answers 400 for malformed JSON and 415 for another media type', async () => {
    const base = await echoServer();
    expect(await post(base, '{"title": ', {})).toMatchObject({
      status: 400,
      body: { code: 'MALFORMED_JSON' },
    });
    expect(await post(base, 'title=x', { 'content-type': 'text/plain' })).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
  });
});

describe('jsonBody: the bytes must be UTF-8', () => {
  const withBytes = (bytes: number[]): Buffer =>
    Buffer.concat([Buffer.from('{"title":"a'), Buffer.from(bytes), Buffer.from('b"}')]);

  it.each([
    ['a byte that never occurs in UTF-8', [0xff]],
    ['a lone continuation byte', [0x80]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['a truncated three-byte sequence', [0xe2, 0x82]],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('answers 400 for %s instead of storing U+FFFD', async (_name, bytes) => {
    const base = await echoServer();
    const answer = await post(base, withBytes(bytes), {});
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'INVALID_UTF8' });
  });

  it('answers 400 for invalid UTF-8 inside a gzip body', async () => {
    const base = await echoServer();
    const answer = await post(base, gzipSync(withBytes([0xff])), { 'content-encoding': 'gzip' });
    expect(answer).toMatchObject({ status: 400, body: { code: 'INVALID_UTF8' } });
  });

  it('reads multi-byte characters and a byte-order mark', async () => {
    const base = await echoServer();
    const text = 'Café 地図 🗺';
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify({ title: text })),
    ]);
    expect(await post(base, body, {})).toEqual({ status: 200, body: { received: { title: text } } });
  });

  it('answers 415 for a body declared in another charset', async () => {
    const base = await echoServer();
    const utf16 = Buffer.from(JSON.stringify({ title: 'x' }), 'utf16le');
    const answer = await post(base, utf16, { 'content-type': 'application/json; charset=utf-16le' });
    expect(answer).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });
});
