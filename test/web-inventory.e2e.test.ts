import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { InventoryPage as InventoryAnswer } from '@portal/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call, createCatalog, createCollection } from './support/http.js';
import { createItem } from './support/uploads.js';
import type { PageWindow } from './support/web-page-types.js';
import { ensureWebBuild, launchBrowser, newPerson, screenshot } from './support/web-browser.js';

const owner = useSignedInCaller();
/**
 * In every description: the e2e stack is shared, and other files' public objects are in everyone's
 * inventory and on everyone's map, so this file counts and searches among its own objects only.
 */
const tag = `inventory-${randomUUID().slice(0, 8)}`;

interface CanvasLike {
  readonly width: number;
  readonly height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

describe('web explorer: inventory, audit feed and map', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
    const catalog = await createCatalog({ title: 'Inventory root', description: tag });
    const collection = await createCollection({ title: 'Scenes', description: tag, parentId: catalog });
    await createItem({
      title: 'Alpine scene',
      description: `${tag} alpine`,
      parentId: collection,
      bbox: [5.9, 45.8, 10.5, 47.8],
    });
    await createItem({
      title: 'Coastal scene',
      description: `${tag} coastal`,
      parentId: collection,
      bbox: [-10, 36, -6, 42],
    });
    ({ context, page } = await newPerson(browser, baseUrl));
    const [name, value] = owner.user().cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: baseUrl }]);
  });
  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('lists the inventory with totals, searches and filters it, as the API counts', async () => {
    await page.goto(`/app/inventory?q=${tag}`);
    await page.getByTestId('totals').waitFor();
    const all = await call<InventoryAnswer>('GET', `/api/v1/portal/inventory/?q=${tag}`);
    expect(all.body.totals.objects).toBe(4);
    await page.getByTestId('total-objects').filter({ hasText: /^4$/ }).waitFor();
    expect(await page.getByTestId('total-kinds').textContent()).toBe('1 catalog, 1 collection, 2 item');

    await page.getByLabel('Search titles and descriptions').fill(`${tag} alpine`);
    await page.waitForURL(/alpine/);
    await page.getByTestId('total-objects').filter({ hasText: /^1$/ }).waitFor();
    expect(await page.getByTestId('inventory-row').locator('.title').allTextContents()).toEqual([
      'Alpine scene',
    ]);
    await screenshot(page, 'inventory-search');

    await page.getByLabel('Search titles and descriptions').fill(tag);
    await page.getByTestId('total-objects').filter({ hasText: /^4$/ }).waitFor();
    await page.getByRole('checkbox', { name: 'item' }).check();
    await page.waitForURL(/kind=item/);
    await page.getByTestId('total-objects').filter({ hasText: /^2$/ }).waitFor();
    expect(await page.getByTestId('inventory-row').locator('.title').allTextContents()).toEqual([
      'Alpine scene',
      'Coastal scene',
    ]);
  });

  it('shows an admin the audit feed, filters it and exports it as CSV', async () => {
    await page.goto('/app/');
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByTestId('audit-event').first().waitFor();
    const types = await page.getByTestId('audit-type').allTextContents();
    expect(types).toContain('CatalogCreated');
    expect(types).toContain('ItemUploadStarted');

    await page.getByLabel('Event types').fill('CatalogCreated');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForFunction(() => {
      const cells = (globalThis as unknown as PageWindow).document.querySelector(
        '[data-testid="audit-events"]',
      );
      return (
        cells !== null &&
        [...cells.querySelectorAll('[data-testid="audit-type"]')].every(
          (cell) => cell.textContent === 'CatalogCreated',
        )
      );
    });
    await screenshot(page, 'audit');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.includes('CatalogCreated'))).toBe(true);
  });

  it('draws the items on an offline world map, without a GPU', async () => {
    await page.goto('/app/map');
    await page.locator('[data-testid="map-canvas"][data-drawn="true"]').waitFor();
    // Other files' public items with footprints are drawn too (the stack is shared): ours are among them.
    const drawn = await page.getByTestId('map-item').allTextContents();
    expect(await page.getByTestId('map-count').textContent()).toBe(`${drawn.length} items`);
    expect(drawn).toEqual(expect.arrayContaining(['Alpine scene', 'Coastal scene']));
    // Land, water and outlines are drawn, and footprints are. That a footprint covers its own area only
    // (a ring wound the wrong way round would cover the rest of the world) is world-map.unit.test.ts's:
    // here other files' public items, of any size, share the map.
    const pixels = await page.getByTestId('map-canvas').evaluate((canvas: CanvasLike) => {
      const context = canvas.getContext('2d');
      if (!context) return { distinct: 0, tinted: 1 };
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      const seen = new Set<number>();
      let tinted = 0;
      let sampled = 0;
      for (let index = 0; index < data.length; index += 4 * 7) {
        const [red, green, blue] = [data[index] ?? 0, data[index + 1] ?? 0, data[index + 2] ?? 0];
        seen.add((red << 16) | (green << 8) | blue);
        if (blue - red > 40) tinted += 1;
        sampled += 1;
      }
      return { distinct: seen.size, tinted: tinted / sampled };
    });
    expect(pixels.distinct).toBeGreaterThan(10);
    expect(pixels.tinted).toBeGreaterThan(0);
    await screenshot(page, 'map');
  });
});
