import { Router } from 'express';
import { HttpProblem } from '../http/problem.js';

/**
 * Paths the contract lists whose behaviour arrives with later work. They answer an honest 501 naming
 * what is missing instead of a 404 (which would say the path does not exist) or a 405 from a
 * neighbouring route.
 */
const pending: readonly { readonly path: string; readonly what: string }[] = [
  { path: '/api/v1/users/me', what: 'users and sign-in' },
  { path: '/api/v1/protected', what: 'users and sign-in' },
  { path: '/api/auth/*rest', what: 'users and sign-in' },
];

export function notImplementedRoutes(): Router {
  const router = Router();
  for (const { path, what } of pending) {
    router.all(path, (_req, _res, next) => {
      next(new HttpProblem(501, `${what} is not available yet`, 'NOT_IMPLEMENTED'));
    });
  }
  return router;
}
