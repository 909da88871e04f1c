import type { Request, Response } from 'express';
import { signInBodySchema } from '@portal/contracts';
import { organizationStreamId, userStreamId, type UserRegistered } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { parseInput } from '../http/validate.js';
import { unauthenticated } from './caller-rules.js';
import { findCredentialsByEmail } from './credential-store.js';
import { membershipIn } from '@portal/read-model-identity';
import { createPersonalOrganization } from './personal-organization.js';
import { verifyPassword } from './passwords.js';
import { setSessionCookie } from './session-cookie.js';
import { createSession, purgeExpiredSessionsNowAndThen } from './session-store.js';
import { newSessionView } from './session-view.js';
import { clientAddress, passRateLimit } from './rate-limit-gate.js';

const WRONG_CREDENTIALS = 'the email or the password is wrong';

/** The registered user behind the credentials; `null` for a reservation whose sign-up never finished. */
async function registeredUser(deps: ApiDependencies, userId: string): Promise<UserRegistered['data'] | null> {
  const events = await deps.eventStore.readStream(userStreamId(userId));
  const registered = events.find((event) => event.type === 'UserRegistered');
  return registered ? (registered.data as UserRegistered['data']) : null;
}

/**
 * A sign-up that stopped between the user's events and their organization's left a user without one;
 * the organization is created now. Only looked at when the read model does not show the membership.
 */
async function ensurePersonalOrganization(
  deps: ApiDependencies,
  req: Request,
  user: UserRegistered['data'],
  orgId: string,
): Promise<void> {
  if ((await deps.eventStore.streamRevision(organizationStreamId(orgId))) !== null) return;
  const { position } = await createPersonalOrganization(deps, req, user, orgId, deps.now());
  if (position) await deps.projection.waitFor(position, deps.config.PROJECTION_WAIT_MS);
}

/**
 * `POST /api/auth/sign-in/email`: always a new session, whatever cookie came with the request. Every
 * attempt counts per email and per client address before its password is checked, and a success takes
 * its count back; past the limit every attempt answers 429 until the window ends.
 */
export async function signIn(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { email, password } = parseInput(signInBodySchema, req.body, 'sign-in');
  const address = clientAddress(req);
  const limiter = deps.auth.signInLimiter;
  await passRateLimit(
    req,
    'sign-in',
    () => limiter.attempt(email, address),
    (seconds) => `too many failed sign-ins; try again in ${seconds} seconds`,
  );
  const credentials = await findCredentialsByEmail(deps.pool, email);
  // An unknown email costs the same scrypt work as a wrong password: timing tells nothing.
  const hash = credentials?.passwordHash ?? (await deps.auth.dummyHash.value());
  const passwordMatches = await verifyPassword(password, hash);
  const user = credentials && passwordMatches ? await registeredUser(deps, credentials.userId) : null;
  // A failure stays counted: the attempt was counted before the check.
  if (!credentials || !user) throw unauthenticated(WRONG_CREDENTIALS);
  // Said only to someone who knows the password: it tells them whom to ask, and nobody else anything.
  if (credentials.disabledAt !== null) {
    throw unauthenticated('this account is disabled; ask the operator of this service');
  }
  await limiter.succeeded(email, address).catch((error: unknown) => {
    // The count stays a failure until its window ends; no reason to refuse someone who knows the password.
    req.log.warn({ err: error }, 'could not take back a successful sign-in from the rate limit');
  });
  purgeExpiredSessionsNowAndThen(deps.pool, (error) => {
    req.log.warn({ err: error }, 'could not purge sessions');
  });

  let organization = await membershipIn(deps.pool, user.userId, credentials.personalOrgId);
  if (!organization) {
    await ensurePersonalOrganization(deps, req, user, credentials.personalOrgId);
    organization = await membershipIn(deps.pool, user.userId, credentials.personalOrgId);
  }
  const session = await createSession(deps.pool, {
    userId: user.userId,
    activeOrgId: credentials.personalOrgId,
    ttlSeconds: deps.config.SESSION_TTL_SECONDS,
    now: deps.now(),
  });
  setSessionCookie(req, res, session.token, session.expiresAt);
  res.json(
    newSessionView({ id: user.userId, email: credentials.email, name: user.name }, session, organization),
  );
}
