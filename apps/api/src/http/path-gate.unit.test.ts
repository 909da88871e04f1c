import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
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
    expect(routeOf('/app', '/app')).toBe('router');
    expect(routeOf('/app', '/app/')).toBe('router');
    expect(routeOf('/app', '/app/browse/land-cover')).toBe('router');
    expect(routeOf('/api/v1/portal/bulk', '/api/v1/portal/bulk')).toBe('router');
  });

  it('passes on paths that only start with the same letters, or spell it in another case', () => {
    expect(routeOf('/app', '/application')).toBe('next');
    expect(routeOf('/app', '/apps/x')).toBe('next');
    expect(routeOf('/app', '/APP/')).toBe('next');
    expect(routeOf('/api/v1/portal/bulk', '/api/v1/portal/bulky')).toBe('next');
    expect(routeOf('/api/v1/portal/bulk', '/api/v1/portal')).toBe('next');
  });

  it('passes on every other path without calling the router', () => {
    expect(routeOf('/app', '/')).toBe('next');
    expect(routeOf('/app', '/api/v1/stac/search')).toBe('next');
  });
});
