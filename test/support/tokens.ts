import { createHmac } from 'node:crypto';
import { E2E_JWT_SECRET } from './stack.js';

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A hand-made JWT, so tests can present what the service must refuse: an expired token signed with the
 * right key, a token signed with another key, a token that claims `alg: none`.
 */
export function forgeJwt(
  claims: Record<string, unknown>,
  options: { secret?: string; alg?: 'HS256' | 'none' } = {},
): string {
  const alg = options.alg ?? 'HS256';
  const unsigned = `${base64url({ alg, typ: 'JWT' })}.${base64url(claims)}`;
  if (alg === 'none') return `${unsigned}.`;
  const signature = createHmac('sha256', options.secret ?? E2E_JWT_SECRET)
    .update(unsigned)
    .digest('base64url');
  return `${unsigned}.${signature}`;
}

/** Claims as `/api/auth/token` issues them, `secondsFromNow` until expiry (negative: expired). */
export function claimsFor(
  subject: { userId: string; orgId: string; role: string; sessionId: string },
  secondsFromNow: number,
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: subject.userId,
    org: subject.orgId,
    role: subject.role,
    sid: subject.sessionId,
    iss: 'portal-catalog-service',
    aud: 'portal-catalog-service',
    iat: now - 3600,
    exp: now + secondsFromNow,
  };
}
