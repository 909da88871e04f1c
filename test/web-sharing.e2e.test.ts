import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addMember, signUp } from './support/auth.js';
import { createInBrowser, signUpInBrowser } from './support/web-forms.js';
import { ensureWebBuild, launchBrowser, newPerson, screenshot } from './support/web-browser.js';

/** The object page's visibility and shares: one person keeps a catalog private and shares it with another. */
describe('web explorer: visibility and sharing', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let owner: { context: BrowserContext; page: Page };
  let guest: { context: BrowserContext; page: Page };
  const title = `Shared survey ${randomUUID().slice(0, 8)}`;
  let path = '';
  let guestId = '';

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
    owner = await newPerson(browser, baseUrl);
    guest = await newPerson(browser, baseUrl);
    await signUpInBrowser(owner.page, 'Olga Owner');
    await signUpInBrowser(guest.page, 'Gus Guest');
    await guest.page.goto('/app/account');
    guestId = (await guest.page.getByTestId('account-user-id').textContent()) ?? '';
  });
  afterAll(async () => {
    await owner.context.close();
    await guest.context.close();
    await browser.close();
  });

  /** The guest opens the catalog's URL (the first test's, unless told): its title, or the API's refusal. */
  async function guestSees(at: string = path): Promise<string> {
    await guest.page.goto(at);
    const shown = guest.page.getByTestId('node-title').or(guest.page.getByTestId('error'));
    await shown.first().waitFor();
    return (await shown.first().textContent()) ?? '';
  }

  it('makes an object private, shares it with a second user who then sees it, and unshares it', async () => {
    const { page } = owner;
    await page.goto('/app/');
    await createInBrowser(page, 'catalog', { title, description: 'Field survey' });
    path = new URL(page.url()).pathname;
    await page.goto(`${path}?tab=details`);
    const sharing = page.getByTestId('sharing');
    await sharing.waitFor();
    expect(await sharing.getByLabel('Visibility').inputValue()).toBe('org');
    expect(await sharing.getByTestId('no-shares').isVisible()).toBe(true);

    await sharing.getByLabel('Visibility').selectOption('private');
    // The select is read back from the object's history, so a reload shows what the API recorded.
    await page.reload();
    await page.getByTestId('sharing').waitFor();
    expect(await page.getByTestId('sharing').getByLabel('Visibility').inputValue()).toBe('private');
    expect(await guestSees()).toMatch(/names no node/);

    // A malformed id is refused at the field in the contract's words, before anything is sent.
    const form = page.getByTestId('share-form');
    await form.getByLabel('User id').fill('not-an-id');
    await form.getByRole('button', { name: 'Share' }).click();
    expect(await form.getByTestId('error-principal.id').textContent()).toMatch(/uuid|id/i);
    // A well-formed id of nobody: the API's own refusal is shown.
    await form.getByLabel('User id').fill(randomUUID());
    await form.getByRole('button', { name: 'Share' }).click();
    expect(await page.getByTestId('share-error').textContent()).not.toBe('');

    await form.getByLabel('User id').fill(guestId);
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Share' }).click();
    await page.getByTestId('share').first().waitFor();
    expect(await page.getByTestId('share-principal').allTextContents()).toEqual([guestId]);
    expect(await page.getByTestId('share-permission').allTextContents()).toEqual(['viewer']);
    await screenshot(page, 'object-sharing');

    // The guest's reads come from the read model, which follows the event store a moment later.
    await expect.poll(guestSees, { timeout: 10_000 }).toBe(title);

    await page.getByRole('button', { name: `Stop sharing with user ${guestId}` }).click();
    await page.getByTestId('no-shares').waitFor();
    await expect.poll(guestSees, { timeout: 10_000 }).toMatch(/names no node/);
  });

  it('shares with an organization: a viewer of that organization then sees the object, others do not', async () => {
    // An organization of two: its owner, and a viewer acting in it (made through the API).
    const team = await signUp({ name: 'Tara Team' });
    const member = await addMember(team, await signUp({ name: 'Vic Viewer' }), 'viewer');
    const teamTitle = `Team survey ${randomUUID().slice(0, 8)}`;
    const { page } = owner;
    await page.goto('/app/');
    await createInBrowser(page, 'catalog', { title: teamTitle, description: 'For the team' });
    const teamPath = new URL(page.url()).pathname;
    await page.goto(`${teamPath}?tab=details`);
    const sharing = page.getByTestId('sharing');
    await sharing.waitFor();
    await sharing.getByLabel('Visibility').selectOption('private');

    const viewer = await newPerson(browser, baseUrl);
    try {
      const [name, value] = member.cookie.split('=') as [string, string];
      await viewer.context.addCookies([{ name, value, url: baseUrl }]);
      const viewerSees = async (): Promise<string> => {
        await viewer.page.goto(teamPath);
        const shown = viewer.page.getByTestId('node-title').or(viewer.page.getByTestId('error'));
        await shown.first().waitFor();
        return (await shown.first().textContent()) ?? '';
      };
      await expect.poll(viewerSees, { timeout: 10_000 }).toMatch(/names no node/);

      const form = page.getByTestId('share-form');
      await form.getByLabel('Share with').selectOption('organization');
      await form.getByLabel('Organization id').fill(team.orgId);
      await form.getByLabel('Role').selectOption('viewer');
      await form.getByRole('button', { name: 'Share' }).click();
      await page.getByTestId('share').first().waitFor();
      expect(await page.getByTestId('share-principal').allTextContents()).toEqual([team.orgId]);
      expect(await page.getByTestId('share').first().textContent()).toMatch(/^organization /);
      await screenshot(page, 'object-sharing-organization');

      // A member of that organization reads it; the guest, in no such organization, still does not.
      await expect.poll(viewerSees, { timeout: 10_000 }).toBe(teamTitle);
      expect(await guestSees(teamPath)).toMatch(/names no node/);

      await page.getByRole('button', { name: `Stop sharing with organization ${team.orgId}` }).click();
      await page.getByTestId('no-shares').waitFor();
      await expect.poll(viewerSees, { timeout: 10_000 }).toMatch(/names no node/);
    } finally {
      await viewer.context.close();
    }
  });

  it('shows no sharing controls to someone who may not manage them', async () => {
    await owner.page.goto(`${path}?tab=details`);
    await owner.page.getByTestId('sharing').waitFor();
    // The guest, given editor rights, reads and edits the catalog but does not manage its shares.
    const form = owner.page.getByTestId('share-form');
    await form.getByLabel('User id').fill(guestId);
    await form.getByLabel('Role').selectOption('editor');
    await form.getByRole('button', { name: 'Share' }).click();
    await owner.page.getByTestId('share').first().waitFor();

    // The panel asks the API whether the caller may manage the shares; its answer decides.
    const asked = guest.page.waitForResponse((response) => response.url().endsWith('/shares'));
    await guest.page.goto(`${path}?tab=details`);
    expect((await asked).status()).toBe(403);
    await guest.page.getByTestId('details').waitFor();
    await guest.page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await guest.page.getByTestId('sharing').count()).toBe(0);
  });
});
