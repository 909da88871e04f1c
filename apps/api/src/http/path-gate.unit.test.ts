import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BULK_PATH } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { WEB_APP_BASE } from '../web-app/routes.js';
import { onlyUnder } from './path-gate.js';

/** Which of the two ways a request went: into the gated router, or on past it. */
function routeOf(prefix: string, path: string): 'router' | 'next' {
  let went: 'router' | 'next' | undefined;
  const router: RequestHandler = () => {
    went = 'router';
  };
  const next: NextFunction = () => {
    went = 'next';
  };
  onlyUnder(prefix, router)({ path } as unknown as Request, {} as unknown as Response, next);
  if (went === undefined) throw new Error(`${path} went nowhere`);
  return went;
}

describe('onlyUnder', () => {
  it('hands the router its prefix and every path below it', () => {
    expect(routeOf(WEB_APP_BASE, '/app')).toBe('router');
    expect(routeOf(WEB_APP_BASE, '/app/')).toBe('router');
    expect(routeOf(WEB_APP_BASE, '/app/browse/land-cover')).toBe('router');
    expect(routeOf(BULK_PATH, BULK_PATH)).toBe('router');
    expect(routeOf(BULK_PATH, `${BULK_PATH}/`)).toBe('router');
  });

  it('passes on paths that only start with the same letters, or spell it in another case', () => {
    expect(routeOf(WEB_APP_BASE, '/application')).toBe('next');
    expect(routeOf(WEB_APP_BASE, '/apps/x')).toBe('next');
    expect(routeOf(WEB_APP_BASE, '/APP/')).toBe('next');
    expect(routeOf(BULK_PATH, `${BULK_PATH}y`)).toBe('next');
    expect(routeOf(BULK_PATH, '/api/v1/portal')).toBe('next');
  });

  it('passes on every other path without calling the router', () => {
    expect(routeOf(WEB_APP_BASE, '/')).toBe('next');
    expect(routeOf(WEB_APP_BASE, '/api/v1/stac/search')).toBe('next');
  });
});
