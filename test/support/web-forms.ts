import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { uniqueEmail } from './auth.js';

/** Signs a new person up through the explorer's form; resolves once the header shows them. */
export async function signUpInBrowser(
  page: Page,
  name: string,
): Promise<{ email: string; password: string }> {
  const email = uniqueEmail('web');
  const password = `pw-${randomUUID()}`;
  await page.goto('/app/sign-up');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByTestId('account-link').waitFor();
  return { email, password };
}

/** Creates a catalog or collection from the current node's page; resolves on the new node's page. */
export async function createInBrowser(
  page: Page,
  kind: 'catalog' | 'collection',
  fields: { title: string; description: string },
): Promise<void> {
  await page.getByRole('button', { name: `New ${kind}` }).click();
  const form = page.getByTestId('create-form');
  await form.getByLabel('Title', { exact: true }).fill(fields.title);
  await form.getByLabel('Description', { exact: true }).fill(fields.description);
  await form.getByRole('button', { name: `Create ${kind}` }).click();
  await page.getByTestId('node-title').filter({ hasText: fields.title }).waitFor();
}
