import type { Router, Request, RequestHandler, Response } from 'express';
import type { ApiDependencies } from '../dependencies.js';
import { HttpProblem } from '../http/problem.js';
import { apiRouter, route } from '../http/routes.js';
import { createApiKey, listOrganizationApiKeys, revokeApiKey } from './api-key-handlers.js';
import {
  acceptInvitation,
  cancelInvitation,
  inviteMember,
  listInvitations,
  listUserInvitations,
} from './invitation-handlers.js';
import { listMembers, removeMember, updateMemberRole } from './member-handlers.js';
import { createOrganization, hasPermission, listOrganizations, setActive } from './organization-handlers.js';
import { getSession, issueToken, signOut } from './session-handlers.js';
import { signIn } from './sign-in.js';
import { signUp } from './sign-up.js';

type Handler = (deps: ApiDependencies, req: Request, res: Response) => Promise<void> | void;
type Methods = Partial<Record<'get' | 'post', Handler>>;

/** The `/api/auth/*` family (docs/identity.md): path below `/api/auth/` → handlers by method. */
const authTable: Readonly<Record<string, Methods>> = {
  'sign-up/email': { post: signUp },
  'sign-in/email': { post: signIn },
  'sign-out': { post: signOut },
  'get-session': { get: getSession },
  token: { get: issueToken, post: issueToken },
  'api-key/create': { post: createApiKey },
  'api-key/list': { get: listOrganizationApiKeys },
  'api-key/revoke': { post: revokeApiKey },
  'organization/create': { post: createOrganization },
  'organization/list': { get: listOrganizations },
  'organization/set-active': { post: setActive },
  'organization/invite-member': { post: inviteMember },
  'organization/accept-invitation': { post: acceptInvitation },
  'organization/list-invitations': { get: listInvitations },
  'organization/list-user-invitations': { get: listUserInvitations },
  'organization/cancel-invitation': { post: cancelInvitation },
  'organization/update-member-role': { post: updateMemberRole },
  'organization/remove-member': { post: removeMember },
  'organization/list-members': { get: listMembers },
  'organization/has-permission': { post: hasPermission },
};

export const authPaths: readonly string[] = Object.keys(authTable);

function bind(deps: ApiDependencies, handler: Handler): RequestHandler {
  return async (req, res) => {
    await handler(deps, req, res);
  };
}

/**
 * Every method on every path below `/api/auth/` ends here: a known path answers its methods, `OPTIONS`
 * with `Allow` (a CORS preflight was answered before), anything else 405 with `Allow` — `TRACE` too,
 * with the message object and nothing of the request; an unknown path answers 404.
 */
export function authRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  for (const [path, methods] of Object.entries(authTable)) {
    const full = `/api/auth/${path}`;
    // As `route` lists them for a 405, with OPTIONS added.
    const allow = Object.keys(methods).map((method) => method.toUpperCase());
    if (allow.includes('GET')) allow.push('HEAD');
    allow.push('OPTIONS');
    router.options(full, (_req, res) => {
      res.setHeader('Allow', allow.join(', '));
      res.status(204).end();
    });
    route(router, full, {
      ...(methods.get ? { get: bind(deps, methods.get) } : {}),
      ...(methods.post ? { post: bind(deps, methods.post) } : {}),
    });
  }
  router.all(['/api/auth', '/api/auth/*rest'], (req, _res, next) => {
    next(new HttpProblem(404, `no auth route ${req.path}`, 'ROUTE_NOT_FOUND'));
  });
  return router;
}
