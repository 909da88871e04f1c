import type { Router } from 'express';
import type { CurrentUser } from '@portal/contracts';
import type { ApiDependencies } from '../dependencies.js';
import { apiRouter, route } from '../http/routes.js';
import { callerOf } from './caller.js';
import { requireSignedIn } from './caller-rules.js';
import { membershipsOf, userCreatedAt } from '@portal/read-model-identity';

/** `GET /api/v1/users/me` and `GET /api/v1/protected`: what a client needs to know who it is. */
export function userRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/users/me', {
    get: async (req, res) => {
      const caller = requireSignedIn(callerOf(req), 'see your account');
      const [memberships, createdAt] = await Promise.all([
        membershipsOf(deps.pool, caller.userId),
        userCreatedAt(deps.pool, caller.userId),
      ]);
      const visible =
        caller.credential === 'api-key'
          ? memberships.filter((membership) => membership.id === caller.orgId)
          : memberships;
      const active = visible.find((membership) => membership.id === caller.orgId);
      const body: CurrentUser = {
        user: { id: caller.userId, email: caller.email, name: caller.name ?? '', createdAt },
        // The role the credential acts with: an API key's is capped by its own.
        activeOrganization: active && caller.role ? { ...active, role: caller.role } : null,
        memberships: visible,
      };
      res.json(body);
    },
  });
  route(router, '/api/v1/protected', {
    get: (req, res) => {
      const caller = requireSignedIn(callerOf(req), 'reach this route');
      res.json({
        message: `signed in as ${caller.email}`,
        userId: caller.userId,
        organizationId: caller.orgId,
        role: caller.role,
      });
    },
  });
  return router;
}
