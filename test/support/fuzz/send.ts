import { Agent, request, type OutgoingHttpHeaders } from 'node:http';
import type { FuzzRequest } from './request-arbitraries.js';

export interface FuzzResponse {
  readonly status: number;
  readonly contentType: string;
  readonly retryAfter: string | null;
  /** The body as text; empty for an event stream, which is closed as soon as it opens. */
  readonly body: string;
}

const TIMEOUT_MS = 30_000;

/** A kept-alive connection the server closed just as this request went out on it: not an answer. */
class StaleConnectionError extends Error {}

/**
 * Sends a request exactly as generated (duplicate header lines included, which fetch would merge) and
 * reads the answer. A request that gets no answer within the timeout rejects.
 *
 * A request sent on a reused keep-alive connection that the server closed at that very moment (its idle
 * timeout) is reset before the server saw it; like any HTTP client, it is sent once more on a new
 * connection. A reset of a fresh connection still rejects.
 */
export async function send(
  baseUrl: string,
  agent: Agent,
  fuzz: FuzzRequest,
  credentialHeaders: Record<string, string>,
): Promise<FuzzResponse> {
  try {
    return await sendOnce(baseUrl, agent, fuzz, credentialHeaders);
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error;
    return sendOnce(baseUrl, agent, fuzz, credentialHeaders);
  }
}

function sendOnce(
  baseUrl: string,
  agent: Agent,
  fuzz: FuzzRequest,
  credentialHeaders: Record<string, string>,
): Promise<FuzzResponse> {
  const url = new URL(baseUrl);
  const headers: OutgoingHttpHeaders = { ...fuzz.headers, ...credentialHeaders };
  if (fuzz.body !== null) headers['content-length'] = String(fuzz.body.length);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: url.hostname,
        port: url.port,
        method: fuzz.method,
        path: fuzz.target,
        headers,
        agent,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const contentType = response.headers['content-type'] ?? '';
        const answer = {
          status: response.statusCode ?? 0,
          contentType,
          retryAfter: response.headers['retry-after'] ?? null,
        };
        if (contentType.startsWith('text/event-stream')) {
          response.destroy();
          resolve({ ...answer, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({ ...answer, body: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', reject);
      },
    );
    sent.on('timeout', () => sent.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    sent.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        sent.reusedSocket && error.code === 'ECONNRESET' ? new StaleConnectionError(error.message) : error,
      );
    });
    sent.end(fuzz.body ?? undefined);
  });
}
