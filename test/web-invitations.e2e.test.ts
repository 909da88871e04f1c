import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUpInBrowser } from './support/web-forms.js';
import { ensureWebBuild, launchBrowser, newPerson, screenshot } from './support/web-browser.js';

/** An owner invites by email on the invitations page; the invited person opens the link and accepts. */
describe('web explorer: invitations', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let owner: { context: BrowserContext; page: Page };
  let invited: { context: BrowserContext; page: Page };
  let invitedEmail = '';

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
    owner = await newPerson(browser, baseUrl);
    invited = await newPerson(browser, baseUrl);
    await signUpInBrowser(owner.page, 'Ines Inviter');
    ({ email: invitedEmail } = await signUpInBrowser(invited.page, 'Ivo Invited'));
  });
  afterAll(async () => {
    await owner.context.close();
    await invited.context.close();
    await browser.close();
  });

  it('invites by email, and the invited person accepts through the passed-on link', async () => {
    const { page } = owner;
    await page.goto('/app/invitations');
    const form = page.getByTestId('invite-form');
    // The contract's message at the field first; nothing is sent.
    await form.getByLabel('Email').fill('not an address');
    await form.getByRole('button', { name: 'Invite' }).click();
    expect(await form.getByTestId('error-email').textContent()).not.toBe('');

    await form.getByLabel('Email').fill(invitedEmail);
    await form.getByLabel('Role').selectOption('editor');
    await form.getByRole('button', { name: 'Invite' }).click();
    const link = (await page.getByTestId('invitation-link').textContent()) ?? '';
    expect(link).toMatch(/\/app\/invitations\?id=/);
    await page.getByTestId('pending-invitation').first().waitFor();
    expect(await page.getByTestId('invitation-email').allTextContents()).toEqual([
      invitedEmail.toLowerCase(),
    ]);
    await screenshot(page, 'invitations');

    // The inviter is not the invited address: the API refuses, in its words.
    const id = new URL(link).searchParams.get('id') ?? '';
    await page.goto(`/app/invitations?id=${id}`);
    await page.getByTestId('accept-form').getByRole('button', { name: 'Accept' }).click();
    expect(await page.getByTestId('accept-error').textContent()).toBe('invitation not found');

    const organization = await organizationName();
    await invited.page.goto(new URL(link).pathname + new URL(link).search);
    const accept = invited.page.getByTestId('accept-form');
    expect(await accept.getByLabel('Invitation id').inputValue()).toBe(id);
    await accept.getByRole('button', { name: 'Accept' }).click();
    expect(await invited.page.getByTestId('joined').textContent()).toBe(
      `You are now editor of ${organization}.`,
    );
    await invited.page.goto('/app/account');
    await invited.page.getByTestId('memberships').waitFor();
    expect(await invited.page.getByTestId('membership-role').allTextContents()).toContain('editor');

    // Accepted, it is no longer pending.
    await page.goto('/app/invitations');
    await page.getByText('No pending invitations.').waitFor();
  });

  /** The inviter's active organization's name, as the account page shows it. */
  async function organizationName(): Promise<string> {
    await owner.page.goto('/app/account');
    const row = owner.page.getByTestId('memberships').locator('tr[aria-current="true"] td').first();
    return ((await row.textContent()) ?? '').replace(/ \(personal\)| — active/g, '');
  }

  it('lists the signed-in person their own invitations, accepted with one button, without a link', async () => {
    const other = await newPerson(browser, baseUrl);
    try {
      await signUpInBrowser(other.page, 'Olga Other');
      await other.page.goto('/app/invitations');
      const form = other.page.getByTestId('invite-form');
      await form.getByLabel('Email').fill(invitedEmail);
      await form.getByLabel('Role').selectOption('viewer');
      await form.getByRole('button', { name: 'Invite' }).click();
      await other.page.getByTestId('pending-invitation').first().waitFor();
      // The inviter has no invitation of their own.
      await other.page.getByTestId('no-user-invitations').waitFor();
    } finally {
      await other.context.close();
    }

    const { page } = invited;
    await page.goto('/app/invitations');
    const mine = page.getByTestId('user-invitation');
    await mine.first().waitFor();
    // Only the pending one: the invitation accepted through the link is gone from the list.
    expect(await page.getByTestId('user-invitation-text').allTextContents()).toEqual([
      expect.stringMatching(/ as viewer, from Olga Other$/) as unknown as string,
    ]);
    await screenshot(page, 'user-invitations');
    const organization = ((await page.getByTestId('user-invitation-text').textContent()) ?? '').replace(
      / as viewer, from Olga Other$/,
      '',
    );
    await mine.getByRole('button', { name: `Accept the invitation to ${organization}` }).click();
    expect(await page.getByTestId('joined').textContent()).toBe(`You are now viewer of ${organization}.`);
    await page.getByTestId('no-user-invitations').waitFor();
    // The switcher knows the new organization at once.
    await page.goto('/app/account');
    await page.getByTestId('memberships').waitFor();
    expect(await page.getByTestId('membership-role').allTextContents()).toEqual(
      expect.arrayContaining(['editor', 'viewer']),
    );
  });

  it('cancels a pending invitation', async () => {
    const { page } = owner;
    await page.goto('/app/invitations');
    const form = page.getByTestId('invite-form');
    await form.getByLabel('Email').fill('someone-else@example.org');
    await form.getByRole('button', { name: 'Invite' }).click();
    await page.getByTestId('pending-invitation').first().waitFor();
    await page.getByRole('button', { name: 'Cancel the invitation of someone-else@example.org' }).click();
    await page.getByText('No pending invitations.').waitFor();
    expect(await page.getByTestId('pending-invitation').count()).toBe(0);
  });
});
