import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The web explorer's browser tests: Debian's Chromium (scripts/ensure-chromium.sh) driven by
 * playwright-core, against the stack's API, which serves the explorer at /app/.
 */

const repoRoot = new URL('../../', import.meta.url).pathname;

/** Screenshots of the main pages land here (gitignored); each path is printed. */
export const SCREENSHOT_DIRECTORY = join(repoRoot, 'test-output', 'web');

/** Builds apps/web when its sources changed (a no-op otherwise): the API serves apps/web/dist. */
export function ensureWebBuild(): void {
  execFileSync('bash', ['scripts/ensure-web-build.sh'], { cwd: repoRoot, stdio: 'inherit' });
}

/**
 * Flags for a machine without a GPU, a sandbox or a network beyond loopback: without the
 * background-networking ones Chromium keeps trying to reach services it cannot, at every start.
 * Playwright's `launch` gives every browser a fresh temporary user-data-dir of its own (it refuses
 * one in the flags), so no run sees another's cookies or cache.
 */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.PORTAL_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}

export const DESKTOP = { width: 1280, height: 860 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** A browser profile of one person: its own cookies, at the stack's address. */
export async function newPerson(
  browser: Browser,
  baseUrl: string,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport, acceptDownloads: true });
  const page = await context.newPage();
  // A failed script or a refused resource is a bug of the page: the test sees it in its output.
  page.on('pageerror', (error) => {
    process.stderr.write(`page error: ${error.message}\n`);
  });
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
  const path = join(SCREENSHOT_DIRECTORY, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
  return path;
}
