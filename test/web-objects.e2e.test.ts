import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createInBrowser, signUpInBrowser } from './support/web-forms.js';
import { ensureWebBuild, launchBrowser, newPerson, screenshot } from './support/web-browser.js';

/** Building a tree through the explorer's forms, then reading and editing an object's page. */
describe('web explorer: objects', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
    ({ context, page } = await newPerson(browser, baseUrl));
    await signUpInBrowser(page, 'Ada Builder');
  });
  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('builds a three-level tree through the forms, with the contract messages at the fields', async () => {
    await page.goto('/app/');
    await page.getByRole('button', { name: 'New catalog' }).click();
    const form = page.getByTestId('create-form');
    // Nothing filled in, and a link without a title: each message at its field, nothing sent.
    await form.getByRole('button', { name: 'Add a link' }).click();
    await form.getByLabel('Link 1 address').fill('https://example.org/land-cover');
    await form.getByRole('button', { name: 'Create catalog' }).click();
    expect(await form.getByTestId('error-title').textContent()).toBe('must be at least 1 character');
    expect(await form.getByTestId('error-description').textContent()).toBe('must be at least 1 character');
    expect(await form.getByTestId('error-links[0].title').textContent()).toBe('must be at least 1 character');
    expect(await form.getByLabel('Title', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'create-invalid');

    await form.getByLabel('Title', { exact: true }).fill('Land cover');
    await form.getByLabel('Description', { exact: true }).fill('Classified land cover');
    await form.getByLabel('Link 1 title').fill('About land cover');
    await form.getByRole('button', { name: 'Create catalog' }).click();
    await page.waitForURL('**/app/browse/land-cover');

    await createInBrowser(page, 'catalog', { title: 'Europe', description: 'Tiles of Europe' });
    await page.waitForURL('**/app/browse/land-cover/europe');
    await page.getByRole('button', { name: 'New collection' }).click();
    const collection = page.getByTestId('create-form');
    await collection.getByLabel('Title', { exact: true }).fill('Sentinel 2');
    await collection.getByLabel('Description', { exact: true }).fill('Level-2A mosaics');
    await collection.getByLabel('License').fill('CC-BY-4.0');
    await collection.getByLabel('Keywords').fill('sentinel, optical');
    await collection.getByRole('button', { name: 'Create collection' }).click();
    await page.waitForURL('**/app/browse/land-cover/europe/sentinel-2');
    await page.getByTestId('node-title').filter({ hasText: 'Sentinel 2' }).waitFor();
    expect(await page.getByTestId('breadcrumbs').locator('li').allTextContents()).toEqual([
      'Root',
      'Land cover',
      'Europe',
      'Sentinel 2',
    ]);
    // A collection holds items only: no catalog or collection is offered inside it.
    expect(await page.getByRole('button', { name: 'New catalog' }).count()).toBe(0);

    // The deep link, opened fresh in another tab of the same person.
    const fresh = await context.newPage();
    await fresh.goto('/app/browse/land-cover/europe/sentinel-2?tab=details');
    await fresh.getByTestId('details').waitFor();
    expect(await fresh.getByTestId('license').textContent()).toBe('CC-BY-4.0');
    expect(await fresh.getByTestId('keywords').textContent()).toBe('sentinel, optical');
    await screenshot(fresh, 'object-details');
    await fresh.close();
  });

  it('edits an object, follows its new slug, and lists every event with actor and before/after', async () => {
    await page.goto('/app/browse/land-cover?tab=details');
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByTestId('edit-form');
    expect(await form.getByLabel('Link 1 title').inputValue()).toBe('About land cover');
    await form.getByLabel('Title', { exact: true }).fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByTestId('error-title').textContent()).toBe('must be at least 1 character');
    await form.getByLabel('Title', { exact: true }).fill('Land cover 2024');
    await form.getByLabel('Description', { exact: true }).fill('Classified land cover, 2024 edition');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/app/browse/land-cover-2024?tab=details');
    // The details are read again after the save; under load the new page can show before that answer.
    await page.getByTestId('description').filter({ hasText: '2024 edition' }).waitFor();
    expect(await page.getByTestId('description').textContent()).toBe('Classified land cover, 2024 edition');

    await page.getByTestId('tab-history').click();
    await page.getByTestId('history-entry').nth(1).waitFor();
    expect(await page.getByTestId('event-type').allTextContents()).toEqual([
      'CatalogCreated',
      'PortalObjectUpdated',
    ]);
    expect(await page.getByTestId('actor').allTextContents()).toEqual(['Ada Builder', 'Ada Builder']);
    const update = page.getByTestId('history-entry').nth(1);
    expect(await update.getByTestId('before').allTextContents()).toEqual([
      'Land cover',
      'Classified land cover',
    ]);
    expect(await update.getByTestId('after').allTextContents()).toEqual([
      'Land cover 2024',
      'Classified land cover, 2024 edition',
    ]);
    await screenshot(page, 'object-history');
  });

  it('refuses to overwrite a change made meanwhile, in the API words', async () => {
    await page.goto('/app/browse/land-cover-2024?tab=details');
    await page.getByRole('button', { name: 'Edit' }).click();
    // Someone else (here: the same person, from another tab) changes the catalog first.
    const status = await page.evaluate(async () => {
      const session = (await (await fetch('/api/auth/get-session')).json()) as { csrfToken: string };
      const found = (await (await fetch('/api/v1/browser/path/land-cover-2024')).json()) as {
        node: { id: string };
      };
      const response = await fetch(`/api/v1/portal/items/${found.node.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ description: 'Changed elsewhere' }),
      });
      return response.status;
    });
    expect(status).toBe(200);
    const form = page.getByTestId('edit-form');
    await form.getByLabel('Description', { exact: true }).fill('My edit');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByTestId('error').textContent()).toBe(
      'the object is at revision 2, not 1; read it again',
    );
  });

  it('shows the object as it was at a revision and at a chosen time, from the API as-of read', async () => {
    await page.goto('/app/browse/land-cover-2024?tab=history');
    await page.getByTestId('history-entry').nth(2).waitFor();
    const asOf = page.getByTestId('as-of');

    await page.getByRole('button', { name: 'View as of revision 0' }).click();
    await page.getByTestId('as-of-title').filter({ hasText: 'Land cover' }).waitFor();
    expect(await page.getByTestId('as-of-title').textContent()).toBe('Land cover');
    expect(await page.getByTestId('as-of-heading').textContent()).toBe('As of revision 0');
    expect(await asOf.getByTestId('description').textContent()).toBe('Classified land cover');
    // A past state is read-only.
    expect(await asOf.getByRole('button', { name: 'Edit' }).count()).toBe(0);

    await page.getByRole('button', { name: 'View as of revision 1' }).click();
    await asOf.getByTestId('description').filter({ hasText: '2024 edition' }).waitFor();
    expect(await page.getByTestId('as-of-title').textContent()).toBe('Land cover 2024');

    // A time before the object existed: the API's 404, in its words.
    await asOf.getByLabel('View as of').fill('2001-01-01T00:00:00');
    await asOf.getByRole('button', { name: 'Show' }).click();
    await asOf.getByTestId('error').waitFor();
    expect(await asOf.getByTestId('error').textContent()).toMatch(/did not exist yet/);

    // A time after every event: the state of today, with the change made from the other tab.
    const later = new Date(Date.now() + 60_000);
    const pad = (value: number) => String(value).padStart(2, '0');
    const local = `${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T${pad(later.getHours())}:${pad(later.getMinutes())}:${pad(later.getSeconds())}`;
    await asOf.getByLabel('View as of').fill(local);
    await asOf.getByRole('button', { name: 'Show' }).click();
    await asOf.getByTestId('description').filter({ hasText: 'Changed elsewhere' }).waitFor();
    await screenshot(page, 'object-as-of');
  });
});
