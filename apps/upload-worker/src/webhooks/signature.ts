import { createHmac } from 'node:crypto';

/**
 * `X-Portal-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per signing
 * secret: the current one first, then, during a rotation's grace period, the previous one. A receiver
 * accepts the delivery when any `v1` matches its secret. The timestamp is inside the signed text, so a
 * receiver that refuses old timestamps (docs/webhooks.md: five minutes) cannot be made to accept a
 * captured delivery again later.
 */
export function signatureHeader(secrets: readonly string[], body: string, at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signatureOf(secret, timestamp, body)}`)].join(
    ',',
  );
}

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}
