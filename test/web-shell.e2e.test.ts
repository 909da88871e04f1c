import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureWebBuild, launchBrowser, newPerson, screenshot } from './support/web-browser.js';

/**
 * The web explorer is served by the API: `/app/` and any deep link below it answer the app's page,
 * hashed assets are cached for good, and `GET /` sends browsers (not JSON clients) to it.
 */
describe('web explorer: served at /app/', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('GET / redirects a client asking for HTML to /app/ and answers JSON clients as before', async () => {
    const html = await fetch(`${baseUrl}/`, {
      redirect: 'manual',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe('/app/');

    for (const accept of ['application/json', '*/*']) {
      const json = await fetch(`${baseUrl}/`, { redirect: 'manual', headers: { accept } });
      expect(json.status).toBe(200);
      expect(((await json.json()) as { name: string }).name).toBe('portal-catalog-service');
    }
  });

  it('answers the page for /app/ and for deep links, and the assets it names with long caching', async () => {
    for (const path of ['/app/', '/app/browse/land-cover/sentinel-2', '/app/sign-in']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      const page = await response.text();
      expect(page).toContain('<div id="app"></div>');
    }
    const page = await (await fetch(`${baseUrl}/app/`)).text();
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${baseUrl}${script ?? ''}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');

    const slashless = await fetch(`${baseUrl}/app`, { redirect: 'manual' });
    expect(slashless.status).toBe(301);
    expect(slashless.headers.get('location')).toBe('/app/');
  });

  it('answers a missing asset with a 404 message, never with the page', async () => {
    const response = await fetch(`${baseUrl}/app/assets/no-such-file.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(((await response.json()) as { message: string }).message).toMatch(/no file .* web explorer/);
  });

  it('renders the root level in Chromium, from / through the redirect', async () => {
    const { context, page } = await newPerson(browser, baseUrl);
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/app/');
    await page.getByTestId('node-title').waitFor();
    expect(await page.getByTestId('node-title').textContent()).toBe('Root level');
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'root-anonymous');
    await context.close();
  });
});
