/**
 * The web explorer at scale: a node with 100,000 children (loaded through the NDJSON bulk endpoint),
 * opened in headless Chromium (Debian's, as the browser tests drive it). Prints the first page's render
 * time, each next keyset page's time from the scroll that asks for it to its rows in the DOM, the
 * render alone, the frame times while scrolling deep in the list, the most rows ever in the DOM and
 * the page's JavaScript heap. Prints, asserts nothing.
 * Usage: npx tsx bench/web-explorer.ts [--children 100000] [--frames 600]
 */
import { sendLines, type LineResult } from '../scripts/ingest/send.js';
import { signUpAt } from '../test/support/pipeline-key.js';
import type { PageElement, PageWindow } from '../test/support/web-page-types.js';
import { ensureWebBuild, launchBrowser, newPerson } from '../test/support/web-browser.js';
import { startBenchStack } from './support/bench-stack.js';
import { positiveInt, readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { perSecond, summarize } from './support/stats.js';
import { printJsonLine, printTable } from './support/table.js';

const raw = readOptions('npx tsx bench/web-explorer.ts [options]', {
  children: { env: 'BENCH_WEB_CHILDREN', default: '100000', help: 'children of the one wide node' },
  frames: { env: 'BENCH_WEB_FRAMES', default: '600', help: 'animation frames scrolled deep in the list' },
});
const options = {
  children: positiveInt('children', raw.children),
  frames: positiveInt('frames', raw.frames),
};
useTestServiceDefaults();
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

async function apiKeyFor(baseUrl: string, session: { cookie: string; csrfToken: string }): Promise<string> {
  const created = await fetch(`${baseUrl}/api/auth/api-key/create`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    body: JSON.stringify({ name: 'bench', role: 'owner' }),
  });
  const body = (await created.json()) as { key?: string };
  if (!body.key) throw new Error(`api-key/create answered ${created.status}`);
  return body.key;
}

async function childCount(baseUrl: string, cookie: string, id: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/browser/nodes/${id}/children?limit=1`, {
    headers: { cookie },
  });
  return ((await response.json()) as { node: { childCount: number } }).node.childCount;
}

ensureWebBuild();
log('starting the stack');
const stack = await startBenchStack({ LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' });
// A browser that cannot start (no Chromium) must not leave the stack's three apps and database behind.
const browser = await launchBrowser().catch(async (error: unknown) => {
  // The launch's error is the one to report, not a failure to stop.
  await stack.stop().catch(() => undefined);
  throw error;
});
try {
  const session = await signUpAt(stack.baseUrl, 'Bench');
  const apiKey = await apiKeyFor(stack.baseUrl, session);
  const created = await fetch(`${stack.baseUrl}/api/v1/portal/catalogs/create`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ title: 'Wide', description: 'One node, many children', links: [] }),
  });
  const wide = ((await created.json()) as { portalItemId: string }).portalItemId;

  log(`loading ${options.children} children through the bulk endpoint`);
  const seedStarted = performance.now();
  const results: LineResult[] = [];
  const half = Math.ceil(options.children / 2);
  await Promise.all(
    [0, 1].map((request) => {
      const first = request * half;
      const count = Math.max(0, Math.min(half, options.children - first));
      const lines = Array.from({ length: count }, (_, index) => ({
        text: JSON.stringify({
          type: index % 10 === 0 ? 'createCatalog' : 'createCollection',
          body: {
            title: `Tile ${String(first + index).padStart(6, '0')}`,
            description: 'x',
            links: [],
            parentId: wide,
          },
        }),
        origin: String(first + index),
      }));
      return sendLines({ url: new URL('/api/v1/portal/bulk', stack.baseUrl), apiKey }, lines, {
        attempts: 3,
        onResult: (result) => results.push(result),
        onRetry: (reason) => {
          log(`retrying: ${reason}`);
        },
      });
    }),
  );
  for (
    let waited = 0;
    (await childCount(stack.baseUrl, session.cookie, wide)) < options.children;
    waited += 1
  ) {
    if (waited > 900) throw new Error('the children were not projected within 15 minutes');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const seedMs = performance.now() - seedStarted;
  log(
    `${results.filter((result) => result.status === 201).length} created and projected in ${(seedMs / 1000).toFixed(1)} s`,
  );

  const { context, page } = await newPerson(browser, stack.baseUrl);
  // tsx keeps function names with a `__name` helper that the page does not have; give it one.
  await page.addInitScript('globalThis.__name = (target) => target;');
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: stack.baseUrl }]);
  const openedAt = performance.now();
  await page.goto('/app/browse/wide');
  await page.getByTestId('virtual-list').waitFor();
  const openMs = performance.now() - openedAt;

  log('scrolling to the end, one keyset page at a time');
  const list = page.getByTestId('virtual-list');
  const loaded = async (): Promise<{ count: number; more: boolean }> => {
    const text = (await page.getByTestId('loaded-count').textContent()) ?? '';
    const shown = /^([\d,]+) shown/.exec(text)?.[1] ?? '0';
    return { count: Number(shown.replace(/,/g, '')), more: text.includes('more') };
  };
  const pageMs: number[] = [];
  for (let state = await loaded(); state.more; state = await loaded()) {
    const before = state.count;
    const started = performance.now();
    await list.evaluate((element: PageElement) => {
      element.scrollTop = element.scrollHeight;
    });
    await page.waitForFunction(
      (count) =>
        !(
          (globalThis as unknown as PageWindow).document.querySelector('[data-testid="loaded-count"]')
            ?.textContent ?? ''
        )
          .replace(/,/g, '')
          .startsWith(`${count} `),
      before,
    );
    pageMs.push(performance.now() - started);
  }
  const renders = await page.evaluate(() =>
    (globalThis as unknown as PageWindow).performance
      .getEntriesByName('portal:children-render')
      .map((entry) => entry.duration),
  );

  log(`scrolling ${options.frames} frames from the middle of the list`);
  const scroll = await list.evaluate(async (element: PageElement, frames: number) => {
    const window = globalThis as unknown as PageWindow;
    element.scrollTop = element.scrollHeight / 2;
    const deltas: number[] = [];
    let most = 0;
    let last = window.performance.now();
    await new Promise((resolve) => {
      let count = 0;
      const step = (now: number) => {
        deltas.push(now - last);
        last = now;
        element.scrollTop += 97;
        most = Math.max(most, element.querySelectorAll('li').length);
        count += 1;
        if (count >= frames) resolve(null);
        else window.requestAnimationFrame(step);
      };
      window.requestAnimationFrame(step);
    });
    return { deltas: deltas.slice(1), most, heap: window.performance.memory?.usedJSHeapSize ?? null };
  }, options.frames);
  const finalCount = (await loaded()).count;
  await context.close();

  const pages = summarize(pageMs);
  const renderAfterFirst = summarize(renders.slice(1));
  const frames = summarize(scroll.deltas);
  printTable(
    `Web explorer, one node of ${options.children.toLocaleString('en-US')} children`,
    ['measure', 'value'],
    [
      ['children loaded and projected per second', perSecond(options.children, seedMs)],
      ['open the node: navigation to list shown (ms)', openMs],
      ['first page (100) render after its data arrived (ms)', renders[0] ?? Number.NaN],
      ['next pages fetched while scrolling to the end', pages.count],
      ['next page: scroll to rows in the DOM, p50 (ms)', pages.p50],
      ['next page: scroll to rows in the DOM, p95 (ms)', pages.p95],
      ['next page: render after its data arrived, p50 (ms)', renderAfterFirst.p50],
      ['next page: render after its data arrived, p95 (ms)', renderAfterFirst.p95],
      ['rows loaded at the end', finalCount],
      ['frame time while scrolling deep, p50 (ms)', frames.p50],
      ['frame time while scrolling deep, p95 (ms)', frames.p95],
      ['frame time while scrolling deep, max (ms)', frames.max],
      ['most list elements in the DOM', scroll.most],
      ['page JavaScript heap at the end (MiB)', scroll.heap === null ? Number.NaN : scroll.heap / 1024 ** 2],
    ],
  );
  printJsonLine('web-explorer', {
    options,
    seedMs,
    openMs,
    firstRenderMs: renders[0] ?? null,
    pages,
    renders: renderAfterFirst,
    frames,
    mostDomRows: scroll.most,
    heapBytes: scroll.heap,
    loaded: finalCount,
  });
} finally {
  await browser.close();
  await stack.stop();
}
