import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, type Router } from 'express';
import type { Config } from '@portal/platform';
import { HttpProblem } from '../http/problem.js';
import { apiRouter, route } from '../http/routes.js';
import { contentSecurityPolicy } from './content-security-policy.js';

/** Where `npm run build -w @portal/web` writes the explorer (apps/web/dist). */
export const DEFAULT_WEB_APP_DIRECTORY = fileURLToPath(new URL('../../../web/dist', import.meta.url));

export const WEB_APP_BASE = '/app';

/**
 * The web explorer (apps/web, docs/web.md) under `/app/`: hashed assets from `/app/assets/`, kept by
 * browsers for a year; every other path below `/app/` answers the app's one HTML page, so a deep link
 * such as `/app/browse/land-cover/sentinel-2` opens the app, which reads the path itself. Mounted
 * before authentication: the files are the same for everyone, and an expired session cookie must not
 * keep the page that lets its owner sign in again from loading.
 */
export function webAppRoutes(
  config: Pick<Config, 'S3_ENDPOINT' | 'S3_PUBLIC_ENDPOINT'>,
  directory = DEFAULT_WEB_APP_DIRECTORY,
): Router {
  const router = apiRouter();
  const policy = contentSecurityPolicy(config.S3_PUBLIC_ENDPOINT ?? config.S3_ENDPOINT);
  router.use(
    `${WEB_APP_BASE}/assets`,
    express.static(join(directory, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      redirect: false,
    }),
  );

  const page: RequestHandler = (req, res) => {
    // A missing asset is a 404, never the HTML page under a script's name.
    if (req.path.startsWith(`${WEB_APP_BASE}/assets/`)) {
      throw new HttpProblem(404, `no file ${req.path} in this build of the web explorer`, 'NOT_FOUND');
    }
    // `/app` without the slash: the page's relative URLs need the trailing one.
    if (req.path === WEB_APP_BASE) {
      res.redirect(301, `${WEB_APP_BASE}/`);
      return;
    }
    const index = join(directory, 'index.html');
    if (!existsSync(index)) {
      throw new HttpProblem(
        404,
        'the web explorer is not built: run `npm run build -w @portal/web` (npm start does)',
        'WEB_APP_NOT_BUILT',
      );
    }
    // Always revalidated: a new build's page names new asset files.
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('Referrer-Policy', 'same-origin');
    res.sendFile(index);
  };
  route(router, WEB_APP_BASE, { get: page });
  route(router, `${WEB_APP_BASE}/*rest`, { get: page });
  return router;
}
