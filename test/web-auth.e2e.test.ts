import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, expectCommand } from './support/http.js';
import { signUp, uniqueEmail } from './support/auth.js';
import { ensureWebBuild, launchBrowser, newPerson, screenshot } from './support/web-browser.js';

async function signUpThroughForm(page: Page, fields: { name: string; email: string; password: string }) {
  await page.goto('/app/sign-up');
  await page.getByLabel('Name').fill(fields.name);
  await page.getByLabel('Email').fill(fields.email);
  await page.getByLabel('Password').fill(fields.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
}

/** Sign up, sign in and out, organizations and roles, all through the explorer's pages. */
describe('web explorer: accounts', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('signs up (field messages first), switches organization, signs out and back in', async () => {
    const { context, page } = await newPerson(browser, baseUrl);
    const email = uniqueEmail('web');
    const password = `pw-${randomUUID()}`;

    // The contract's own messages, at the fields, before anything is sent.
    await signUpThroughForm(page, { name: '', email: 'not-an-email', password: 'short' });
    expect(await page.getByTestId('error-password').textContent()).toBe('must be at least 8 characters');
    expect(await page.getByTestId('error-name').textContent()).toMatch(/at least 1 character/);
    expect(await page.getByTestId('error-email').isVisible()).toBe(true);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'sign-up-invalid');

    await signUpThroughForm(page, { name: 'Ada Web', email, password });
    await page.getByTestId('account-link').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');
    expect(await page.getByTestId('account-link').textContent()).toBe('Ada Web');
    expect(await page.getByTestId('active-role').textContent()).toBe('owner');

    // A second organization, made active through the switcher.
    await page.getByTestId('account-link').click();
    await page.getByTestId('memberships').waitFor();
    expect(await page.getByTestId('membership-role').allTextContents()).toEqual(['owner']);
    await page.getByLabel('Name').fill('Second team');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: /Second team/ }).waitFor();
    const second = await page
      .getByTestId('organization-switcher')
      .locator('option', { hasText: 'Second team' })
      .getAttribute('value');
    await page.getByTestId('organization-switcher').selectOption(second ?? '');
    await page.getByRole('cell', { name: /Second team — active/ }).waitFor();
    await screenshot(page, 'account');

    // The session really acts there now: the API says so to the same cookie.
    const session = await page.evaluate(async () => {
      const response = await fetch('/api/auth/get-session');
      return (await response.json()) as { activeOrganization: { name: string } | null };
    });
    expect(session.activeOrganization?.name).toBe('Second team');

    await page.getByTestId('sign-out').click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();

    // A wrong password: the API's message, as it said it.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByTestId('error').textContent()).toBe('the email or the password is wrong');
    await screenshot(page, 'sign-in-refused');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('account-link').waitFor();
    expect(await page.getByTestId('account-link').textContent()).toBe('Ada Web');
    await context.close();
  });

  it("shows a member's role in the organization they were invited to", async () => {
    const owner = await signUp({ name: 'Team Owner' });
    const password = `pw-${randomUUID()}`;
    const email = uniqueEmail('viewer');
    const { context, page } = await newPerson(browser, baseUrl);
    await signUpThroughForm(page, { name: 'Vera Viewer', email, password });
    await page.getByTestId('account-link').waitFor();

    const invited = await call<{ id: string }>('POST', '/api/auth/organization/invite-member', {
      headers: owner.headers,
      body: { email, role: 'viewer' },
    });
    await expectCommand(invited, 201, 'invite');
    // Accepting is the member's own act; the explorer has no page for it yet, so the test sends it
    // with the browser's own session (cookie and CSRF token).
    const accepted = await page.evaluate(async (invitationId) => {
      const session = (await (await fetch('/api/auth/get-session')).json()) as { csrfToken: string };
      const response = await fetch('/api/auth/organization/accept-invitation', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ invitationId }),
      });
      return response.status;
    }, invited.body.id);
    expect(accepted).toBe(200);

    await page.goto('/app/account');
    await page.getByTestId('memberships').waitFor();
    expect((await page.getByTestId('membership-role').allTextContents()).sort()).toEqual(['owner', 'viewer']);
    const teamOption = page.getByTestId('organization-switcher').locator('option', { hasText: 'Team Owner' });
    await page
      .getByTestId('organization-switcher')
      .selectOption((await teamOption.getAttribute('value')) ?? '');
    await page.getByRole('cell', { name: /Team Owner — active/ }).waitFor();
    expect(await page.getByTestId('active-role').textContent()).toBe('viewer');
    await context.close();
  });
});
