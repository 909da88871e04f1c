import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe: session ids, CSRF tokens, the secret part of API keys. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the tables keep instead of a secret: finding a row by it needs the secret itself. */
export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  // Equal digests of different strings are out of reach; hashing first makes the lengths equal.
  return timingSafeEqual(left, right) && a === b;
}
