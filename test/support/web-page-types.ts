/**
 * The few DOM types the browser tests use inside `page.evaluate` callbacks, which run in the page.
 * The test project is compiled for Node without the DOM library (adding it globally clashes with
 * Node's fetch types), so callbacks name these instead: `(globalThis as unknown as PageWindow)`.
 */
export interface PageElement {
  scrollTop: number;
  readonly clientHeight: number;
  readonly scrollHeight: number;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement> & { readonly length: number };
}

export interface PageWindow {
  readonly document: {
    querySelector(selector: string): PageElement | null;
    readonly documentElement: { readonly scrollWidth: number };
  };
  readonly innerWidth: number;
  requestAnimationFrame(callback: (now: number) => void): number;
  getComputedStyle(element: PageElement): { readonly transform: string };
  readonly DOMMatrixReadOnly: new (transform: string) => { readonly m42: number };
  readonly performance: {
    now(): number;
    getEntriesByName(name: string): { readonly duration: number; readonly detail?: unknown }[];
    /** Chromium only: the page's JavaScript heap. */
    readonly memory?: { readonly usedJSHeapSize: number };
  };
}
