import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useSignedInCaller, type SignedInUser } from './support/auth.js';
import { createCatalog, createCollection } from './support/http.js';
import { MIB, sha256 } from './support/uploads.js';
import {
  ensureWebBuild,
  launchBrowser,
  newPerson,
  screenshot,
  SCREENSHOT_DIRECTORY,
} from './support/web-browser.js';

const owner = useSignedInCaller();
const PART_PUT = /[?&]partNumber=\d+/;

async function signedInPage(browser: Browser, baseUrl: string, user: SignedInUser): Promise<Page> {
  const { context, page } = await newPerson(browser, baseUrl);
  const [name, value] = user.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: baseUrl }]);
  return page;
}

/** Counts the part PUTs a page sends, and how many were on the wire at once. */
function watchPartPuts(page: Page): { sent: () => number[]; mostAtOnce: () => number } {
  const sent: number[] = [];
  const open = new Set<Request>();
  let most = 0;
  page.on('request', (request) => {
    if (request.method() !== 'PUT' || !PART_PUT.test(request.url())) return;
    sent.push(Number(new URL(request.url()).searchParams.get('partNumber')));
    open.add(request);
    most = Math.max(most, open.size);
  });
  const close = (request: Request) => open.delete(request);
  page.on('requestfinished', close);
  page.on('requestfailed', close);
  return { sent: () => [...sent].sort((a, b) => a - b), mostAtOnce: () => most };
}

/**
 * The file on disk, as a user picks it: picking it again gives the same name, size and modification
 * time, which is how the explorer recognises the file of an unfinished upload.
 */
async function fileOnDisk(bytes: Buffer): Promise<string> {
  const directory = join(SCREENSHOT_DIRECTORY, '..', 'web-files');
  await mkdir(directory, { recursive: true });
  const path = join(directory, 'scene.bin');
  await writeFile(path, bytes);
  return path;
}

async function startUpload(page: Page, collectionPath: string, title: string, file: string): Promise<void> {
  await page.goto(`/app/browse/${collectionPath}`);
  await page.getByRole('button', { name: 'New item' }).click();
  await page.getByLabel('File').setInputFiles(file);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByRole('button', { name: 'Upload' }).click();
}

async function downloadedBytes(page: Page): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download').click()]);
  return readFile(await download.path());
}

describe('web explorer: uploads', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let collectionPath: string;

  beforeAll(async () => {
    ensureWebBuild();
    browser = await launchBrowser();
    const catalog = await createCatalog({ title: 'Scenes' });
    await createCollection({ title: 'Sentinel 2', parentId: catalog });
    collectionPath = 'scenes/sentinel-2';
  });
  afterAll(async () => {
    await browser.close();
  });

  it('uploads 20 MiB in parallel parts, shows progress until ready, and downloads the same bytes', async () => {
    const page = await signedInPage(browser, baseUrl, owner.user());
    const puts = watchPartPuts(page);
    const file = randomBytes(20 * MIB);
    await startUpload(page, collectionPath, 'Scene 42', await fileOnDisk(file));
    await page.waitForURL(`**/app/browse/${collectionPath}/scene-42`);
    await page.getByTestId('upload-progress').waitFor();
    await screenshot(page, 'upload-progress');
    await page.getByTestId('details-status').filter({ hasText: 'ready' }).waitFor({ timeout: 60_000 });
    // The page's record and the upload's own status both reach ready (either may come first).
    await page.getByTestId('upload-phase').filter({ hasText: 'ready' }).waitFor();
    expect(await page.getByTestId('upload-figures').textContent()).toMatch(
      /^20\.0 MiB of 20\.0 MiB \(100%\)/,
    );
    expect(puts.sent()).toEqual([1, 2, 3, 4]);
    expect(puts.mostAtOnce()).toBeGreaterThan(1);
    await screenshot(page, 'upload-ready');

    const downloaded = await downloadedBytes(page);
    expect(downloaded.length).toBe(file.length);
    expect(sha256(downloaded)).toBe(sha256(file));
    await page.context().close();
  });

  it('resumes after a reload, sending only the parts the store does not hold', async () => {
    const page = await signedInPage(browser, baseUrl, owner.user());
    const file = randomBytes(20 * MIB);
    // Parts 3 and 4 cannot reach the store: the upload stops with its message.
    await page.route(/[?&]partNumber=[34](&|$)/, (route) => route.abort('connectionreset'));
    const path = await fileOnDisk(file);
    await startUpload(page, collectionPath, 'Scene 43', path);
    await page.waitForURL(`**/app/browse/${collectionPath}/scene-43`);
    await page.getByTestId('upload-message').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('upload-phase').textContent()).toBe('stopped');
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    await page.reload();
    await page.getByTestId('resume-hint').waitFor();
    expect(await page.getByTestId('resume-hint').textContent()).toContain('Choose scene.bin again');
    const puts = watchPartPuts(page);
    await page.getByLabel('Resume with file').setInputFiles(path);
    await page.getByTestId('details-status').filter({ hasText: 'ready' }).waitFor({ timeout: 60_000 });
    expect(puts.sent()).toEqual([3, 4]);
    expect(sha256(await downloadedBytes(page))).toBe(sha256(file));
    await page.context().close();
  });

  it('cancels an upload: the parts are discarded and the item is aborted', async () => {
    const page = await signedInPage(browser, baseUrl, owner.user());
    // Parts never arrive: the upload is under way when the user cancels it.
    await page.route(PART_PUT, () => undefined);
    await startUpload(page, collectionPath, 'Scene 44', await fileOnDisk(randomBytes(6 * MIB)));
    await page.waitForURL(`**/app/browse/${collectionPath}/scene-44`);
    await page.getByRole('button', { name: 'Cancel upload' }).click();
    await page.getByTestId('details-status').filter({ hasText: 'aborted' }).waitFor();
    await page.getByTestId('upload-phase').filter({ hasText: 'cancelled' }).waitFor();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.context().close();
  });
});
