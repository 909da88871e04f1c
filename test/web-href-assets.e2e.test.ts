import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { slugify } from '@portal/domain';
import { useSignedInCaller } from './support/auth.js';
import { call, createCollection, expectCommand } from './support/http.js';
import { ensureWebBuild, launchBrowser, newPerson, screenshot } from './support/web-browser.js';

useSignedInCaller();

/** An item whose assets live elsewhere, registered by href: its page links them, with no upload. */
describe('web explorer: assets registered by href', () => {
  const baseUrl = inject('baseUrl');
  const tag = randomBytes(4).toString('hex');
  const collectionTitle = `Href archive ${tag}`;
  const itemTitle = `Scene by href ${tag}`;
  const stacId = `S2A_href_${tag}`;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ensureWebBuild();
    const collectionId = await createCollection({ title: collectionTitle, visibility: 'public' });
    const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/items/create', {
      body: {
        title: itemTitle,
        visibility: 'public',
        links: [],
        parentId: collectionId,
        stacId,
        assets: {
          visual: {
            href: 'https://data.example.org/scenes/visual.tif',
            type: 'image/tiff',
            roles: ['visual'],
          },
        },
      },
    });
    await expectCommand(created, 201, 'register an item by href');
    browser = await launchBrowser();
    ({ context, page } = await newPerson(browser, baseUrl));
  });
  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('opens the item and links its asset where it lives, without a download or a size', async () => {
    await page.goto(`/app/browse/${slugify(collectionTitle)}/${slugify(itemTitle)}`);
    const link = page.getByTestId('asset-link');
    await link.waitFor();
    expect(await link.textContent()).toBe('Open visual');
    expect(await link.getAttribute('href')).toBe('https://data.example.org/scenes/visual.tif');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.getByTestId('download').count()).toBe(0);
    expect(await page.getByTestId('assets').textContent()).not.toMatch(/NaN|undefined/);
    // Named by its STAC client: the name its STAC path and id carry.
    expect(await page.getByTestId('stac-id').textContent()).toBe(stacId);
    await screenshot(page, 'item-href-assets');
  });
});
