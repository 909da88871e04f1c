import type { Request } from 'express';
import type { OrganizationMembership, SessionView } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { callerOf } from './caller.js';
import { membershipIn } from '@portal/read-model-identity';
import { sessionOf } from './session-context.js';

/** What `get-session` answers for this request's caller. */
export async function sessionViewOf(pool: Pool, req: Request): Promise<SessionView> {
  const caller = callerOf(req);
  if (caller.userId === null) {
    return { credential: 'anonymous', user: null, session: null, activeOrganization: null, csrfToken: null };
  }
  const session = sessionOf(req);
  const membership = caller.orgId === null ? null : await membershipIn(pool, caller.userId, caller.orgId);
  // The role the credential acts with: an API key's is capped by its own.
  const activeOrganization = membership && caller.role ? { ...membership, role: caller.role } : null;
  return {
    credential: caller.credential,
    user: { id: caller.userId, email: caller.email ?? '', name: caller.name ?? '' },
    session:
      session && caller.orgId !== null
        ? {
            id: session.publicId,
            createdAt: session.createdAt.toISOString(),
            expiresAt: session.expiresAt.toISOString(),
            activeOrganizationId: caller.orgId,
          }
        : null,
    activeOrganization,
    // Only a cookie needs it, and only a page that may read the API learns it.
    csrfToken: caller.credential === 'session' && session ? session.csrfToken : null,
  };
}

/** The view of a session this request just started (sign-up, sign-in), before any cookie comes back. */
export function newSessionView(
  user: { readonly id: string; readonly email: string; readonly name: string },
  session: {
    readonly publicId: string;
    readonly createdAt: Date;
    readonly expiresAt: Date;
    readonly activeOrgId: string;
    readonly csrfToken: string;
  },
  activeOrganization: OrganizationMembership | null,
): SessionView {
  return {
    credential: 'session',
    user,
    session: {
      id: session.publicId,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      activeOrganizationId: session.activeOrgId,
    },
    activeOrganization,
    csrfToken: session.csrfToken,
  };
}
