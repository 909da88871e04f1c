import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createLogger } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { useInProcessServers } from '../../test/support/in-process-server.js';
import { errorMiddleware } from '../http/error-middleware.js';
import { requestLogging } from '../http/request-logging.js';
import { webAppRoutes } from './routes.js';

const servers = useInProcessServers();
const config = {
  S3_ENDPOINT: 'http://127.0.0.1:7480',
  S3_PUBLIC_ENDPOINT: 'https://files.example.org/bucket',
};

/** A build of the explorer in a directory of its own: the page and one hashed asset. */
function buildDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'portal-web-'));
  mkdirSync(join(directory, 'assets'));
  writeFileSync(join(directory, 'index.html'), '<!doctype html><div id="app"></div>');
  writeFileSync(join(directory, 'assets', 'index-abc123.js'), 'console.log(1);');
  return directory;
}

async function serve(directory: string): Promise<string> {
  const app = express();
  app.use(requestLogging(createLogger({ name: 'test', level: 'silent' })));
  app.use(webAppRoutes(config, directory));
  app.use(errorMiddleware);
  return servers.start(createServer(app));
}

describe('webAppRoutes', () => {
  it('answers the page for every path below /app/, never cached without revalidation', async () => {
    const base = await serve(buildDirectory());
    for (const path of ['/app/', '/app/browse/a/b', '/app/nodes/x', '/app/anything?x=1']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('<div id="app">');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it("lets the page reach the object store's public origin, and nothing else outside", async () => {
    const base = await serve(buildDirectory());
    const policy = (await fetch(`${base}/app/`)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("connect-src 'self' https://files.example.org;");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets for a year and answers a missing one with a 404 message', async () => {
    const base = await serve(buildDirectory());
    const asset = await fetch(`${base}/app/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await fetch(`${base}/app/assets/gone.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('NOT_FOUND');
  });

  it('redirects /app to /app/, and says how to build when there is no build', async () => {
    const base = await serve(mkdtempSync(join(tmpdir(), 'portal-web-empty-')));
    const slashless = await fetch(`${base}/app`, { redirect: 'manual' });
    expect(slashless.status).toBe(301);
    expect(slashless.headers.get('location')).toBe('/app/');
    const unbuilt = await fetch(`${base}/app/`);
    expect(unbuilt.status).toBe(404);
    const body = (await unbuilt.json()) as { code: string; message: string };
    expect(body.code).toBe('WEB_APP_NOT_BUILT');
    expect(body.message).toMatch(/npm run build -w @portal\/web/);
  });
});
