import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, hostOf, refusalOf, type OutboundPolicy } from '@portal/platform';

/** A receiver gets this long for the whole exchange, connection to last byte. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer before it is dropped: its status is all that counts. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PostResult {
  readonly statusCode: number | null;
  /** `null` when the receiver answered 2xx. */
  readonly error: string | null;
  readonly durationMs: number;
}

export interface OutgoingDelivery {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is a failure): a redirect could point at an
 * address the policy refuses. The connection goes to an address checked by the outbound policy
 * (`guardedLookup`), never to one the name resolves to later. Never throws: every outcome is a result.
 */
export async function postDelivery(
  delivery: OutgoingDelivery,
  policy: OutboundPolicy,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return { statusCode: null, error: 'the endpoint URL is not valid', durationMs: elapsed() };
  }
  const protocol = url.protocol === 'http:' ? 'http:' : 'https:';
  const host = hostOf(url);
  // Node connects to an address literal without a lookup, so the policy is asked directly.
  const refusal = isIP(host) === 0 ? null : refusalOf(host, protocol, policy);
  if (refusal !== null) return { statusCode: null, error: `refused: ${refusal}`, durationMs: elapsed() };
  try {
    const statusCode = await send(url, delivery, policy, timeoutMs);
    const ok = statusCode >= 200 && statusCode < 300;
    return { statusCode, error: ok ? null : `the receiver answered ${statusCode}`, durationMs: elapsed() };
  } catch (error) {
    return { statusCode: null, error: describe(error, timeoutMs), durationMs: elapsed() };
  }
}

function send(
  url: URL,
  delivery: OutgoingDelivery,
  policy: OutboundPolicy,
  timeoutMs: number,
): Promise<number> {
  const protocol = url.protocol === 'http:' ? 'http:' : 'https:';
  const request = protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: { ...delivery.headers, 'content-length': Buffer.byteLength(delivery.body).toString() },
        lookup: guardedLookup(protocol, policy),
        // A fresh connection per delivery: a kept-alive one would skip the address check.
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (answer: IncomingMessage) => {
        let read = 0;
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) answer.destroy();
        });
        answer.on('close', () => {
          resolve(answer.statusCode ?? 0);
        });
        answer.on('error', () => {
          resolve(answer.statusCode ?? 0);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(delivery.body);
  });
}

function describe(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown }).name;
  if (name === 'AbortError' || name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return (typeof code === 'string' ? `${code}: ${message}` : message).slice(0, 500);
}
