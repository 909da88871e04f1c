import type { OrganizationActor, Role } from '@portal/domain';
import { HttpProblem } from '../http/problem.js';
import type { AuthenticatedCaller } from './caller.js';

/** A caller who proved who they are. */
export type SignedInCaller = AuthenticatedCaller & { readonly userId: string; readonly email: string };

export function unauthenticated(message: string): HttpProblem {
  return new HttpProblem(401, message, 'UNAUTHENTICATED');
}

export function requireSignedIn(caller: AuthenticatedCaller, doing: string): SignedInCaller {
  if (caller.userId === null || caller.email === null) throw unauthenticated(`sign in to ${doing}`);
  return caller as SignedInCaller;
}

type Credential = AuthenticatedCaller['credential'];

const credentialNames: Record<Credential, string> = {
  anonymous: 'no credential',
  session: 'the session cookie',
  jwt: 'a JWT',
  'api-key': 'an API key',
};

/**
 * Some routes need a particular credential: an API key acts within its organization only and cannot
 * mint tokens, keys or organizations; a JWT cannot mint another JWT or move its session.
 */
export function requireCredential(
  caller: AuthenticatedCaller,
  allowed: readonly Credential[],
  doing: string,
): SignedInCaller {
  const signedIn = requireSignedIn(caller, doing);
  if (!allowed.includes(caller.credential)) {
    throw new HttpProblem(
      403,
      `${doing} needs ${allowed.map((credential) => credentialNames[credential]).join(' or ')}, not ${credentialNames[caller.credential]}`,
      'FORBIDDEN',
    );
  }
  return signedIn;
}

/** The caller's active organization, which a member-only route needs them to belong to. */
export function requireActiveOrganization(caller: SignedInCaller): { orgId: string; role: Role | null } {
  if (caller.orgId === null) {
    throw new HttpProblem(403, 'no active organization; set one with organization/set-active', 'FORBIDDEN');
  }
  return { orgId: caller.orgId, role: caller.role };
}

/** The caller as the organization's decider sees them: it reads their role from the stream and caps it. */
export function organizationActorOf(caller: SignedInCaller): OrganizationActor {
  return { userId: caller.userId, email: caller.email, roleCap: caller.roleCap };
}
