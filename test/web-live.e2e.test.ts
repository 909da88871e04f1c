import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { settleCommandAt } from './support/command-answer.js';
import { call, callAt, createCatalog, createCollection, expectCommand } from './support/http.js';
import { signUpAt } from './support/pipeline-key.js';
import { startStack, type Stack } from './support/stack.js';
import type { PageWindow } from './support/web-page-types.js';
import { ensureWebBuild, launchBrowser, newPerson, screenshot } from './support/web-browser.js';

const owner = useSignedInCaller();

/** A mark on the page's window: still there later means the page never reloaded. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as PageWindow & { portalTestMark?: boolean }).portalTestMark = true;
  });
}
async function stillSamePage(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as unknown as { portalTestMark?: boolean }).portalTestMark === true);
}

describe('web explorer: live updates', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let catalog: string;

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
    catalog = await createCatalog({ title: 'Live catalog' });
    await createCollection({ title: 'Existing', parentId: catalog });
    ({ context, page } = await newPerson(browser, baseUrl));
    const [name, value] = owner.user().cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: baseUrl }]);
  });
  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('shows changes made through the API without a reload: a create, a retitle, a delete', async () => {
    await page.goto('/app/browse/live-catalog');
    await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
    await page.getByTestId('node-row').filter({ hasText: 'Existing' }).waitFor();
    await markPage(page);

    const created = await createCollection({ title: 'Arrived live', parentId: catalog });
    await page.getByTestId('node-row').filter({ hasText: 'Arrived live' }).waitFor();
    await page.getByTestId('child-count').filter({ hasText: '2 children' }).waitFor();
    // In the list's order: kind, then title.
    expect(await page.getByTestId('node-row').locator('.title').allTextContents()).toEqual([
      'Arrived live',
      'Existing',
    ]);

    const retitled = await call('PATCH', `/api/v1/portal/items/${created}`, {
      body: { title: 'Zebra crossing' },
    });
    await expectCommand(retitled, 200, 'retitle');
    await page.getByTestId('node-row').filter({ hasText: 'Zebra crossing' }).waitFor();
    expect(await page.getByTestId('node-row').locator('.title').allTextContents()).toEqual([
      'Existing',
      'Zebra crossing',
    ]);

    const deleted = await call('DELETE', `/api/v1/portal/items/${created}`);
    await expectCommand(deleted, 200, 'delete');
    await page.getByTestId('node-row').filter({ hasText: 'Zebra crossing' }).waitFor({ state: 'detached' });
    await page.getByTestId('child-count').filter({ hasText: '1 child' }).waitFor();
    expect(await stillSamePage(page)).toBe(true);
    await screenshot(page, 'live');
  });
});

/**
 * Resuming: a stack of its own whose streams end after three seconds (as every stream does after
 * SSE_MAX_CONNECTION_MS), so the explorer reconnects; the reconnection is held back while a change is
 * made, and must then bring that change, replayed from its Last-Event-ID.
 */
describe('web explorer: live updates across a reconnection', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuild();
    [stack, browser] = await Promise.all([startStack({ SSE_MAX_CONNECTION_MS: '3000' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser.close();
    await stack.stop();
  });

  it('reconnects with Last-Event-ID and shows what happened while it was away', async () => {
    const session = await signUpAt(stack.baseUrl, 'Resumer');
    const write = { cookie: session.cookie, 'x-csrf-token': session.csrfToken };
    const createUnder = async (title: string, parentId?: string): Promise<string> => {
      const response = await callAt<{ portalItemId: string }>(
        stack.baseUrl,
        'POST',
        `/api/v1/portal/${parentId ? 'collections' : 'catalogs'}/create`,
        {
          headers: write,
          body: { title, description: 'x', links: [], ...(parentId ? { parentId } : {}) },
        },
      );
      await settleCommandAt(stack.baseUrl, response, 201, 'create');
      return response.body.portalItemId;
    };
    const catalog = await createUnder('Resume catalog');

    const { context, page } = await newPerson(browser, stack.baseUrl);
    const [name, value] = session.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: stack.baseUrl }]);
    await page.goto('/app/browse/resume-catalog');
    await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
    // One change first, so the feed has an id to resume from.
    await createUnder('Before the cut', catalog);
    await page.getByTestId('node-row').filter({ hasText: 'Before the cut' }).waitFor();

    // Hold the next connection: the server ends the stream within three seconds, the page retries.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = new Promise<string | undefined>((resolve) => {
      void page.route('**/api/v1/events*', async (route) => {
        resolve(route.request().headers()['last-event-id']);
        await released;
        await route.continue();
      });
    });
    const lastEventId = await held;
    expect(lastEventId).toMatch(/^\d+\.\d+$/);
    await page.getByTestId('live-status').filter({ hasText: 'reconnecting' }).waitFor();
    await createUnder('While away', catalog);
    release();

    await page.getByTestId('node-row').filter({ hasText: 'While away' }).waitFor();
    expect(await page.getByTestId('node-row').locator('.title').allTextContents()).toEqual([
      'Before the cut',
      'While away',
    ]);
    await context.close();
  }, 120_000);
});
