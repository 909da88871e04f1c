import { request } from 'node:http';
import { inject } from 'vitest';
import { defaultCredentialHeaders } from './http.js';

export interface NdjsonAnswer {
  readonly status: number;
  readonly contentType: string;
  /** Every complete line of the response, parsed (for an error answer: its one JSON body). */
  readonly lines: readonly Record<string, unknown>[];
  /** The client went away (`stopWhen` said so) before the response ended. */
  readonly aborted: boolean;
}

export interface NdjsonOptions {
  readonly headers?: Record<string, string>;
  readonly path?: string;
  /** Looked at after every response line; `true` destroys the connection there (a client going away). */
  readonly stopWhen?: (received: readonly Record<string, unknown>[]) => boolean;
}

/**
 * Streams `lines` to the bulk endpoint of the shared stack over one HTTP/1.1 request, writing as the
 * socket accepts (so a request of 100,000 lines is never one string), while reading the response as it
 * comes: the results of early chunks arrive before the request is finished.
 */
export function postNdjson(lines: Iterable<string>, options: NdjsonOptions = {}): Promise<NdjsonAnswer> {
  const url = new URL(options.path ?? '/api/v1/portal/bulk', inject('baseUrl'));
  return new Promise((resolve, reject) => {
    const received: Record<string, unknown>[] = [];
    let aborted = false;
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-ndjson',
        'transfer-encoding': 'chunked',
        ...defaultCredentialHeaders(),
        ...options.headers,
      },
    });
    req.on('response', (res) => {
      let rest = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        rest += text;
        let newline = rest.indexOf('\n');
        while (newline !== -1) {
          const line = rest.slice(0, newline);
          rest = rest.slice(newline + 1);
          if (line.trim() !== '') received.push(JSON.parse(line) as Record<string, unknown>);
          newline = rest.indexOf('\n');
        }
        if (!aborted && options.stopWhen?.(received)) {
          aborted = true;
          req.destroy();
          res.destroy();
          resolve({ status: res.statusCode ?? 0, contentType: '', lines: [...received], aborted });
        }
      });
      res.on('end', () => {
        if (rest.trim() !== '') received.push(JSON.parse(rest) as Record<string, unknown>);
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          lines: received,
          aborted,
        });
      });
      res.on('error', (error) => {
        if (!aborted) reject(error);
      });
    });
    req.on('error', (error) => {
      if (!aborted) reject(error);
    });
    const iterator = lines[Symbol.iterator]();
    const pump = (): void => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        if (aborted) return;
        if (!req.write(`${next.value}\n`)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}
