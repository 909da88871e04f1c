import type { Request } from 'express';
import { anonymous, callerPrincipals, type Caller, type Role } from '@portal/domain';

/**
 * Who is asking, as the authentication middleware (`authenticate.ts`) found out: a user acting in one
 * organization with their current role there, or `anonymous`. Every handler asks here, never a header.
 */
export interface AuthenticatedCaller extends Caller {
  /** How the caller proved who they are; decides CSRF checks and which auth routes apply. */
  readonly credential: 'anonymous' | 'session' | 'jwt' | 'api-key';
  /** The session behind a cookie or a JWT (its public id, never the secret). */
  readonly sessionId: string | null;
  readonly apiKeyId: string | null;
  /**
   * The highest role the credential may use: an API key's own role; `null` for sessions and JWTs.
   * `role` is already capped by it; command handlers re-read the member's role from the organization's
   * stream and cap it again with this.
   */
  readonly roleCap: Role | null;
  readonly email: string | null;
  readonly name: string | null;
}

export const anonymousCaller: AuthenticatedCaller = {
  ...anonymous,
  credential: 'anonymous',
  sessionId: null,
  apiKeyId: null,
  roleCap: null,
  email: null,
  name: null,
};

// Keyed by the request object itself: nothing to declare on express's types, nothing left behind.
const callers = new WeakMap<Request, AuthenticatedCaller>();

export function callerOf(req: Request): AuthenticatedCaller {
  return callers.get(req) ?? anonymousCaller;
}

export function setCaller(req: Request, caller: AuthenticatedCaller): void {
  callers.set(req, caller);
}

/** The principals the caller holds, for SQL's `read_principals && $n::text[]`. */
export function principalsOf(req: Request): string[] {
  return callerPrincipals(callerOf(req));
}
