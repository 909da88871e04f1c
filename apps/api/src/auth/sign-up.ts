import type { Request, Response } from 'express';
import { signUpBodySchema } from '@portal/contracts';
import { handleCommand } from '@portal/commands';
import { DomainError, userDecider, userStreamId, type Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandContextOf } from '../commands/command-context.js';
import { metadataOf } from '../commands/metadata.js';
import { respondToCommand } from '../commands/respond.js';
import { parseInput } from '../http/validate.js';
import { releaseEmail, reserveEmail } from './credential-store.js';
import { createPersonalOrganization } from './personal-organization.js';
import { hashPassword } from './passwords.js';
import { setSessionCookie } from './session-cookie.js';
import { createSession } from './session-store.js';
import { newSessionView } from './session-view.js';
import { clientAddress, passRateLimit } from './rate-limit-gate.js';

/** Whether the user's stream exists; `true` when the store cannot tell, to keep a live user's email. */
async function userMayExist(deps: Pick<ApiDependencies, 'eventStore'>, userId: string): Promise<boolean> {
  try {
    return (await deps.eventStore.readStream(userStreamId(userId))).length > 0;
  } catch {
    return true;
  }
}

/**
 * `POST /api/auth/sign-up/email`: the email is reserved in `auth.credentials` first, then the user's and
 * their personal organization's events are appended; if that fails before the user exists, the
 * reservation is released so the email can sign up again. Answers 201 with a new session. At most
 * `SIGN_UP_MAX_PER_ADDRESS` sign-ups per client address and `SIGN_UP_WINDOW_SECONDS`, then 429.
 */
export async function signUp(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { email, password, name } = parseInput(signUpBodySchema, req.body, 'sign-up');
  // Counted before the 32 MiB hash: parallel sign-ups from one address cannot all pass an uncounted check.
  await passRateLimit(
    req,
    'sign-up',
    () => deps.auth.signUpLimiter.attempt(clientAddress(req)),
    (seconds) => `too many sign-ups from this address; try again in ${seconds} seconds`,
  );
  const userId = deps.newId();
  const orgId = deps.newId();
  const at = deps.now();
  const passwordHash = await hashPassword(password, deps.config.PASSWORD_SCRYPT_COST);
  const credentials = { userId, email, passwordHash, personalOrgId: orgId };
  if (!(await reserveEmail(deps.pool, deps.eventStore, credentials))) {
    throw new DomainError('ALREADY_EXISTS', 'an account with this email already exists; sign in instead');
  }
  let recorded: { readonly slug: string; readonly position: Position | null };
  try {
    await handleCommand(commandContextOf(deps), {
      streamId: userStreamId(userId),
      decider: userDecider,
      expectedRevision: 'no_stream',
      command: { type: 'RegisterUser', data: { userId, email, name } },
      metadata: metadataOf(req, at, { userId, orgId }),
    });
    recorded = await createPersonalOrganization(deps, req, { userId, name }, orgId, at);
  } catch (error) {
    // Released only while the user does not exist; a user without their organization gets it at sign-in.
    if (!(await userMayExist(deps, userId))) await releaseEmail(deps.pool, userId);
    throw error;
  }
  const session = await createSession(deps.pool, {
    userId,
    activeOrgId: orgId,
    ttlSeconds: deps.config.SESSION_TTL_SECONDS,
    now: at,
  });
  setSessionCookie(req, res, session.token, session.expiresAt);
  const organization = {
    id: orgId,
    name,
    slug: recorded.slug,
    personal: true,
    role: 'owner' as const,
    createdAt: at.toISOString(),
    joinedAt: at.toISOString(),
  };
  await respondToCommand(
    deps,
    req,
    res,
    { position: recorded.position, revision: null },
    { status: 201, body: newSessionView({ id: userId, email, name }, session, organization) },
  );
}
