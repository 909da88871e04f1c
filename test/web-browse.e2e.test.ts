import type { BrowserChildren } from '@portal/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUp, useSignedInCaller, type SignedInUser } from './support/auth.js';
import { createMany, waitForProjection, type CreateCommand } from './support/browser-tree.js';
import { call, createCatalog, createCollection } from './support/http.js';
import type { PageElement, PageWindow } from './support/web-page-types.js';
import { ensureWebBuild, launchBrowser, newPerson, PHONE, screenshot } from './support/web-browser.js';

const owner = useSignedInCaller();
const TILES = 1_200;

/** A browser profile signed in as `user`: their session cookie, as sign-in would have set it. */
async function signedInPerson(
  browser: Browser,
  baseUrl: string,
  user: SignedInUser,
  viewport?: { width: number; height: number },
) {
  const person = await newPerson(browser, baseUrl, viewport);
  const [name, value] = user.cookie.split('=') as [string, string];
  await person.context.addCookies([{ name, value, url: baseUrl }]);
  return person;
}

interface ListState {
  readonly rows: { pos: number; title: string }[];
  readonly domRows: number;
}

/** The rows in the DOM now, by their place in the whole list (aria-posinset). */
async function listState(page: Page): Promise<ListState> {
  return page.getByTestId('virtual-list').evaluate((list: PageElement) => ({
    rows: [...list.querySelectorAll('li.row:not(.loading-row)')].map((row) => ({
      pos: Number(row.getAttribute('aria-posinset')),
      title: row.querySelector('.title')?.textContent ?? '',
    })),
    domRows: list.querySelectorAll('li').length,
  }));
}

/** Two animation frames: scroll events have been handled and the list has rendered for them. */
async function frames(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        const page = globalThis as unknown as PageWindow;
        page.requestAnimationFrame(() => {
          page.requestAnimationFrame(() => {
            resolve(null);
          });
        });
      }),
  );
}

/** Waits until the loading row, if any, is out of view: the page it stood for has arrived. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const page = globalThis as unknown as PageWindow;
    const list = page.document.querySelector('[data-testid="virtual-list"]');
    if (!list) return false;
    const loading = list.querySelector('.loading-row');
    if (!loading) return true;
    const top = new page.DOMMatrixReadOnly(page.getComputedStyle(loading).transform).m42;
    return top > list.scrollTop + list.clientHeight;
  });
}

/** Every title of a node's children in the API's order, paged with the API's own cursors. */
async function titlesFromApi(nodeId: string, query = ''): Promise<string[]> {
  const titles: string[] = [];
  let cursor: string | null = null;
  do {
    const suffix: string = cursor ? `&cursor=${cursor}` : '';
    const page = await call<BrowserChildren>(
      'GET',
      `/api/v1/browser/nodes/${nodeId}/children?limit=1000${query}${suffix}`,
    );
    expect(page.status).toBe(200);
    titles.push(...page.body.items.map((item) => item.title));
    cursor = page.body.next;
  } while (cursor);
  return titles;
}

describe('web explorer: the tree', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let europe: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
    const landCover = await createCatalog({ title: 'Land cover' });
    europe = await createCatalog({ title: 'Europe', parentId: landCover });
    await createCollection({ title: 'Sentinel 2', parentId: europe });
    // Tiles in an order of their own: catalogs among them sort before every collection.
    const tiles: CreateCommand[] = Array.from({ length: TILES }, (_, index) => ({
      type: index % 10 === 0 ? 'createCatalog' : 'createCollection',
      body: {
        title: `Tile ${String(index).padStart(4, '0')}`,
        description: 'x',
        links: [],
        parentId: europe,
      },
    }));
    const made = await createMany(tiles, 4);
    await waitForProjection(made.position);
    ({ context, page } = await signedInPerson(browser, baseUrl, owner.user()));
  }, 300_000);
  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('opens a deep slug URL directly, with breadcrumbs that lead back up', async () => {
    await page.goto('/app/browse/land-cover/europe/sentinel-2');
    await page.getByTestId('node-title').waitFor();
    expect(await page.getByTestId('node-title').textContent()).toBe('Sentinel 2');
    expect(await page.getByTestId('breadcrumbs').locator('li').allTextContents()).toEqual([
      'Root',
      'Land cover',
      'Europe',
      'Sentinel 2',
    ]);
    expect(await page.getByTestId('empty').textContent()).toBe('Nothing here yet.');
    await screenshot(page, 'browse-deep-link');

    await page.getByTestId('breadcrumbs').getByRole('link', { name: 'Land cover' }).click();
    await page.waitForURL('**/app/browse/land-cover');
    // The URL changes before the new node's answer is drawn: wait for the page to show it.
    await page
      .getByTestId('node-title')
      .filter({ hasText: /^Land cover$/ })
      .waitFor();
    await page.getByTestId('node-row').filter({ hasText: 'Europe' }).click();
    await page.waitForURL('**/app/browse/land-cover/europe');
    await page
      .getByTestId('node-title')
      .filter({ hasText: /^Europe$/ })
      .waitFor();
    await page
      .getByTestId('child-count')
      .filter({ hasText: `${(TILES + 1).toLocaleString('en-US')} children` })
      .waitFor();
  });

  it('a missing path says which segment names nothing, in the API words', async () => {
    await page.goto('/app/browse/land-cover/no-such-thing');
    const message = await page.getByTestId('error').textContent();
    expect(message).toMatch(/no-such-thing/);
  });

  it('scrolls through 1,201 children with a bounded DOM, fetching the next keyset pages on the way', async () => {
    await page.goto('/app/browse/land-cover/europe');
    await page.getByTestId('virtual-list').waitFor();
    const renders = await page.evaluate(() =>
      (globalThis as unknown as PageWindow).performance
        .getEntriesByName('portal:children-render')
        .map((entry) => ({ ms: entry.duration, count: entry.detail as { count: number } })),
    );
    console.log(
      `render time of the first ${renders[0]?.count.count ?? '?'}-child page after its data arrived: ${renders[0]?.ms.toFixed(1) ?? '?'} ms`,
    );

    const seen = new Map<number, string>();
    let largestDom = 0;
    for (let step = 0; step < 1_000; step += 1) {
      await settled(page);
      await frames(page);
      const state = await listState(page);
      largestDom = Math.max(largestDom, state.domRows);
      for (const row of state.rows) seen.set(row.pos, row.title);
      const loaded = await page.getByTestId('loaded-count').textContent();
      const atEnd = await page
        .getByTestId('virtual-list')
        .evaluate((list: PageElement) => list.scrollTop + list.clientHeight >= list.scrollHeight - 1);
      if (atEnd && !loaded?.includes('more')) break;
      await page.getByTestId('virtual-list').evaluate((list: PageElement) => {
        list.scrollTop += list.clientHeight;
      });
    }
    expect(await page.getByTestId('loaded-count').textContent()).toBe(
      `${(TILES + 1).toLocaleString('en-US')} shown`,
    );
    const titles = [...seen.entries()].sort(([a], [b]) => a - b).map(([, title]) => title);
    expect(titles).toEqual(await titlesFromApi(europe));
    // A window of rows, never the list: what keeps 100,000 children as smooth as 1,000.
    expect(largestDom).toBeLessThan(60);
    console.log(`largest number of rows in the DOM while scrolling ${TILES + 1} children: ${largestDom}`);
  });

  it('sorts and filters from controls that live in the URL', async () => {
    await page.goto('/app/browse/land-cover/europe');
    await page.getByLabel('Sort').selectOption('title');
    await page.getByLabel('Order').selectOption('desc');
    await page.waitForURL('**/app/browse/land-cover/europe?sort=title&order=desc');
    await page.getByTestId('node-row').first().waitFor();
    const descending = await titlesFromApi(europe, '&sort=title&order=desc');
    expect(await page.getByTestId('node-row').first().locator('.title').textContent()).toBe(descending[0]);

    await page.getByRole('checkbox', { name: 'catalog' }).check();
    await page.waitForURL(/kind=catalog/);
    // The first page of the 120 catalogs, in the API's order for the same query.
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageWindow).document.querySelector('[data-testid="loaded-count"]')
          ?.textContent === '100 shown, more below',
    );
    const shown = await page.getByTestId('node-row').locator('.title').allTextContents();
    const expected = await titlesFromApi(europe, '&sort=title&order=desc&kind=catalog');
    expect(expected).toHaveLength(TILES / 10);
    expect(shown).toEqual(expected.slice(0, shown.length));
    expect(new Set(await page.getByTestId('node-row').locator('.badge').allTextContents())).toEqual(
      new Set(['Catalog']),
    );
    await screenshot(page, 'browse-sorted-filtered');

    // The URL is the state: opening it fresh shows the same.
    await page.reload();
    expect(await page.getByLabel('Sort').inputValue()).toBe('title');
    expect(await page.getByRole('checkbox', { name: 'catalog' }).isChecked()).toBe(true);
  });

  it('works from the keyboard and on a phone-sized screen', async () => {
    const phone = await signedInPerson(browser, baseUrl, owner.user(), PHONE);
    await phone.page.goto('/app/browse/land-cover');
    await phone.page.getByTestId('node-row').first().waitFor();
    await screenshot(phone.page, 'browse-phone');
    // Tab from the list's first link, Enter follows it.
    await phone.page.getByTestId('node-row').first().focus();
    await phone.page.keyboard.press('Enter');
    await phone.page.waitForURL('**/app/browse/land-cover/europe');
    const overflow = await phone.page.evaluate(() => {
      const window = globalThis as unknown as PageWindow;
      return window.document.documentElement.scrollWidth - window.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.context.close();
  });

  it("shows another organization's user none of it", async () => {
    const stranger = await signUp({ name: 'Stranger' });
    const other = await signedInPerson(browser, baseUrl, stranger);
    await other.page.goto('/app/');
    await other.page.getByTestId('node-title').waitFor();
    expect(await other.page.getByTestId('node-row').filter({ hasText: 'Land cover' }).count()).toBe(0);
    await other.page.goto('/app/browse/land-cover/europe');
    expect(await other.page.getByTestId('error').textContent()).toMatch(/land-cover/);
    await other.context.close();
  });
});
