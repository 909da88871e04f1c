import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got, with whether its signature held (checked as docs/webhooks.md tells). */
export interface ReceivedDelivery {
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  readonly body: { id: string; type: string; organizationId: string; object: { id: string } | null } & Record<
    string,
    unknown
  >;
  readonly receivedAt: number;
  readonly signatureValid: boolean;
  /** The status the receiver answered. */
  readonly answered: number;
}

export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * What a receiver does with `X-Portal-Signature: t=…,v1=…[,v1=…]`: recompute the HMAC-SHA256 of
 * "<t>.<raw body>" with its secret, accept when any `v1` matches (compared in constant time; during a
 * secret rotation there are two), and refuse a timestamp more than five minutes away.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  rawBody: string,
  nowMs = Date.now(),
): boolean {
  if (header === undefined) return false;
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string]);
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  const signatures = parts.filter(([name, value]) => name === 'v1' && /^[0-9a-f]{64}$/.test(value));
  if (!Number.isInteger(timestamp) || signatures.length === 0) return false;
  if (Math.abs(nowMs / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return signatures.some(([, signature]) => timingSafeEqual(expected, Buffer.from(signature, 'hex')));
}

/** The `v1` signatures of a header, in order. */
export function signaturesOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .filter((part) => part.startsWith('v1='))
    .map((part) => part.slice('v1='.length));
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedDelivery[];
  /** Decides each answer; `secret` (once known) is used to check signatures. */
  answer: (delivery: Omit<ReceivedDelivery, 'answered'>, received: readonly ReceivedDelivery[]) => number;
  secret: string;
  /** Resolves with the deliveries once `predicate` holds for them; rejects after `timeoutMs`. */
  waitFor(
    predicate: (received: readonly ReceivedDelivery[]) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/** A receiver on a loopback port of its own, over plain http (WEBHOOK_ALLOW_HTTP_LOOPBACK in the stacks). */
export async function startReceiver(path = '/hook'): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const receiver: WebhookReceiver = {
    url: '',
    received,
    answer: () => 200,
    secret: '',
    waitFor: (predicate, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...received]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`the receiver did not see what was expected; it got ${received.length} deliveries`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
    });
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const delivery = {
        headers: req.headers,
        rawBody,
        body: JSON.parse(rawBody) as ReceivedDelivery['body'],
        receivedAt: Date.now(),
        signatureValid: verifySignature(
          receiver.secret,
          req.headers['x-portal-signature'] as string | undefined,
          rawBody,
        ),
      };
      const answered = receiver.answer(delivery, received);
      received.push({ ...delivery, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'no');
      for (const waiter of [...waiters]) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}${path}` });
}
