import { createStore } from './store.js';

export interface Location {
  readonly pathname: string;
  readonly search: string;
}

const current = (): Location => ({ pathname: window.location.pathname, search: window.location.search });

/** The address bar, as a store: pages render from it, links and forms change it. */
export const locationStore = createStore<Location>(current());

window.addEventListener('popstate', () => {
  locationStore.set(current());
});

export function navigate(href: string, options: { readonly replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  locationStore.set(current());
  window.scrollTo(0, 0);
}

/** A plain left click on a link of this app: handled here, without reloading the page. */
export function followLink(event: MouseEvent, href: string): void {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(href);
}
