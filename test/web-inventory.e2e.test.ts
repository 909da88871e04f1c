import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { InventoryPage as InventoryAnswer } from '@portal/contracts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
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

/** How many colours a canvas shows, and which share of it is tinted with the footprints' blue. */
async function canvasPixels(canvas: Locator): Promise<{ distinct: number; tinted: number }> {
  return canvas.evaluate((element: CanvasLike) => {
    const context = element.getContext('2d');
    if (!context) return { distinct: 0, tinted: 1 };
    const { data } = context.getImageData(0, 0, element.width, element.height);
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
}

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
    const pixels = await canvasPixels(page.getByTestId('map-canvas'));
    expect(pixels.distinct).toBeGreaterThan(10);
    expect(pixels.tinted).toBeGreaterThan(0);
    await screenshot(page, 'map');
  });

  it('filters the map by a box dragged on it, kept in the URL, through the STAC search bbox', async () => {
    await page.goto('/app/map');
    const canvas = page.getByTestId('map-canvas');
    await page.locator('[data-testid="map-canvas"][data-drawn="true"]').waitFor();
    const frame = await canvas.boundingBox();
    if (!frame) throw new Error('the map canvas has no box');
    // The projection's central meridian is the canvas's middle and the equator its half height: a
    // rectangle from just east of 0° to about 60° east, between about 25° and 65° north, holds the
    // Alpine scene and not the Coastal one (west of 6° W).
    const { x, y, width, height } = frame;
    const from = { x: x + width * 0.51, y: y + height * 0.5 - height * 0.4 };
    const to = { x: x + width * 0.62, y: y + height * 0.5 - height * 0.15 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    expect(await page.getByTestId('map-selection').isVisible()).toBe(true);
    await page.mouse.up();
    await page.waitForURL(/bbox=/);
    // Other files' public items may lie in the box too (the stack is shared): ours are told apart.
    const onlyAlpine = async (): Promise<void> => {
      // The list of before stays until the filtered answer arrives: wait for it to go.
      await page.getByTestId('map-item').filter({ hasText: 'Coastal scene' }).waitFor({ state: 'detached' });
      await page.getByTestId('map-item').filter({ hasText: 'Alpine scene' }).waitFor();
      const drawn = await page.getByTestId('map-item').allTextContents();
      expect(await page.getByTestId('map-count').textContent()).toMatch(
        new RegExp(`^${drawn.length} items?$`),
      );
    };
    await onlyAlpine();
    const [west, south, east, north] = ((await page.getByTestId('map-bbox').textContent()) ?? '')
      .split(',')
      .map(Number) as [number, number, number, number];
    expect(west).toBeGreaterThan(-6);
    expect(west).toBeLessThan(5.9);
    expect(east).toBeGreaterThan(10.5);
    expect(south).toBeLessThan(45.8);
    expect(north).toBeGreaterThan(47.8);
    // The API answers the same box the same way: the link opens that very search.
    const href = (await page.getByTestId('map-search-link').getAttribute('href')) ?? '';
    const search = await call<{ features: { properties: { title?: string } }[] }>('GET', href);
    const titles = search.body.features.map((feature) => feature.properties.title);
    expect(titles).toContain('Alpine scene');
    expect(titles).not.toContain('Coastal scene');
    await screenshot(page, 'map-box');

    // The URL alone restores the view; clearing the box shows everything again.
    await page.reload();
    await onlyAlpine();
    await page.getByRole('button', { name: 'Show everywhere' }).click();
    await page.getByTestId('map-item').filter({ hasText: 'Coastal scene' }).waitFor();
    expect(await page.getByTestId('map-item').allTextContents()).toEqual(
      expect.arrayContaining(['Alpine scene', 'Coastal scene']),
    );
    expect(new URL(page.url()).search).toBe('');

    // The keyboard's way: the box typed in, checked before it is asked for.
    const typed = page.getByLabel('Box (west, south, east, north)');
    await typed.fill('-20, 30, 0');
    await page.getByRole('button', { name: 'Show the box' }).click();
    expect(await page.getByTestId('error-box').isVisible()).toBe(true);
    await typed.fill('-20, 30, 0, 45');
    await page.getByRole('button', { name: 'Show the box' }).click();
    await page.waitForURL(/bbox=/);
    await page.getByTestId('map-item').filter({ hasText: 'Alpine scene' }).waitFor({ state: 'detached' });
    await page.getByTestId('map-item').filter({ hasText: 'Coastal scene' }).waitFor();
  });

  it('takes the map’s box to the inventory, which filters by it as the API does', async () => {
    await page.goto('/app/map?bbox=0,40,20,50');
    await page.getByTestId('map-item').filter({ hasText: 'Alpine scene' }).waitFor();
    await page.getByTestId('map-inventory-link').click();
    await page.waitForURL(/\/app\/inventory\?bbox=0%2C40%2C20%2C50$|\/app\/inventory\?bbox=0,40,20,50$/);
    expect(await page.getByTestId('inventory-bbox').textContent()).toBe('0,40,20,50');
    // Among this file's own objects: the Alpine scene, and the collection, whose extent (no item is
    // ready yet) is the whole world; not the catalog (no place) nor the Coastal scene (outside).
    await page.getByLabel('Search titles and descriptions').fill(tag);
    await page.waitForURL(new RegExp(`q=${tag}`));
    const api = await call<InventoryAnswer>(
      'GET',
      `/api/v1/portal/inventory/?q=${tag}&bbox=0,40,20,50&sort=kind`,
    );
    expect(api.body.items.map((entry) => entry.title)).toEqual(['Scenes', 'Alpine scene']);
    await page.getByTestId('total-objects').filter({ hasText: /^2$/ }).waitFor();
    // The page's order is the children's (by kind), the same as the API's answer above.
    expect(await page.getByTestId('inventory-row').locator('.title').allTextContents()).toEqual([
      'Scenes',
      'Alpine scene',
    ]);
    expect(new URL(page.url()).searchParams.get('bbox')).toBe('0,40,20,50');
    await screenshot(page, 'inventory-box');

    // Another box typed in: checked in the API's words first, then kept beside the search.
    const typed = page.getByLabel('Box (west, south, east, north)');
    await typed.fill('-20, 30, 0');
    await page.getByRole('button', { name: 'Filter by box' }).click();
    expect(await page.getByTestId('error-box').textContent()).toBe(
      'must be 4 numbers (west,south,east,north) or 6 with heights; got 3',
    );
    await typed.fill('-20, 30, 0, 45');
    await page.getByRole('button', { name: 'Filter by box' }).click();
    await page.getByTestId('inventory-bbox').filter({ hasText: '-20,30,0,45' }).waitFor();
    await page
      .getByTestId('inventory-row')
      .filter({ hasText: 'Alpine scene' })
      .waitFor({ state: 'detached' });
    expect(await page.getByTestId('inventory-row').locator('.title').allTextContents()).toEqual([
      'Scenes',
      'Coastal scene',
    ]);
    expect(new URL(page.url()).searchParams.get('q')).toBe(tag);

    // Back to the map with the same box, and any place again.
    expect(await page.getByTestId('inventory-map-link').getAttribute('href')).toBe(
      '/app/map?bbox=-20,30,0,45',
    );
    await page.getByRole('button', { name: 'Any place' }).click();
    await page.getByTestId('total-objects').filter({ hasText: /^4$/ }).waitFor();
    expect(new URL(page.url()).searchParams.has('bbox')).toBe(false);
  });

  it('shows an item footprint on its own page, zoomed to its surroundings', async () => {
    await page.goto('/app/map');
    const link = page.getByTestId('map-item').filter({ hasText: 'Alpine scene' });
    await link.click();
    await page.getByTestId('node-title').filter({ hasText: 'Alpine scene' }).waitFor();
    await page.locator('[data-testid="footprint-map"][data-drawn="true"]').waitFor();
    await screenshot(page, 'object-footprint');
    const pixels = await canvasPixels(page.getByTestId('footprint-map'));
    // Zoomed in, the footprint fills a visible share of the map, but not all of it.
    expect(pixels.distinct).toBeGreaterThan(10);
    expect(pixels.tinted).toBeGreaterThan(0.03);
    expect(pixels.tinted).toBeLessThan(0.5);
  });
  it('draws a collection’s extent on its own page, zoomed to it', async () => {
    // Southern Africa, given on create: the details show the extent's box on the footprint map.
    const id = await createCollection({
      title: `Extent ${randomUUID().slice(0, 8)}`,
      description: 'A collection with a place',
      extent: {
        spatial: { bbox: [[16, -35, 33, -22]] },
        temporal: { interval: [['2024-01-01T00:00:00Z', null]] },
      },
    });
    await page.goto(`/app/nodes/${id}?tab=details`);
    await page.locator('[data-testid="footprint-map"][data-drawn="true"]').waitFor();
    await screenshot(page, 'collection-extent');
    const pixels = await canvasPixels(page.getByTestId('footprint-map'));
    expect(pixels.distinct).toBeGreaterThan(10);
    expect(pixels.tinted).toBeGreaterThan(0.03);
    expect(pixels.tinted).toBeLessThan(0.5);
  });
});
