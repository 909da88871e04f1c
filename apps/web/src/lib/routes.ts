/**
 * The explorer's URLs. A tree node's URL is its slug path (`/app/browse/land-cover/sentinel-2`), the
 * very path `GET /api/v1/browser/path/…` resolves, so a link can be shared and opened directly.
 * Pure functions: parsing and building are unit-tested (routes.unit.test.ts).
 */
export const APP_BASE = '/app';

export type Route =
  | { readonly name: 'browse'; readonly slugs: readonly string[] }
  | { readonly name: 'node'; readonly id: string }
  | { readonly name: 'sign-in'; readonly next: string | null }
  | { readonly name: 'sign-up' }
  | { readonly name: 'account' }
  | { readonly name: 'inventory' }
  | { readonly name: 'audit' }
  | { readonly name: 'map' }
  | { readonly name: 'invitations'; readonly id: string | null }
  | { readonly name: 'not-found'; readonly path: string };

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The route of a location's path (and query, for `next`). Unknown paths are `not-found`. */
export function parseRoute(pathname: string, search = ''): Route {
  const inside =
    pathname === APP_BASE
      ? '/'
      : pathname.startsWith(`${APP_BASE}/`)
        ? pathname.slice(APP_BASE.length)
        : null;
  if (inside === null) return { name: 'not-found', path: pathname };
  const segments = inside.split('/').filter((segment) => segment !== '');
  const [first, ...rest] = segments;
  if (first === undefined) return { name: 'browse', slugs: [] };
  if (first === 'browse') {
    const slugs = rest.map(decodeSegment);
    if (slugs.some((slug) => slug === null)) return { name: 'not-found', path: pathname };
    return { name: 'browse', slugs: slugs as string[] };
  }
  if (first === 'nodes' && rest.length === 1 && rest[0] !== undefined) return { name: 'node', id: rest[0] };
  if (rest.length > 0) return { name: 'not-found', path: pathname };
  switch (first) {
    case 'sign-in': {
      const next = new URLSearchParams(search).get('next');
      // Only a path of this app: a `next` pointing elsewhere would make sign-in an open redirect.
      return { name: 'sign-in', next: next?.startsWith(`${APP_BASE}/`) ? next : null };
    }
    case 'sign-up':
      return { name: 'sign-up' };
    case 'account':
      return { name: 'account' };
    case 'inventory':
      return { name: 'inventory' };
    case 'audit':
      return { name: 'audit' };
    case 'map':
      return { name: 'map' };
    case 'invitations':
      return { name: 'invitations', id: new URLSearchParams(search).get('id') };
    default:
      return { name: 'not-found', path: pathname };
  }
}

/** The link an inviter passes on: it opens the invitations page with the invitation filled in. */
export const invitationHref = (id: string): string => `${APP_BASE}/invitations?id=${encodeURIComponent(id)}`;

/** The URL of a slug path (`land-cover/sentinel-2` or its segments); the root level for none. */
export function browseHref(path: string | readonly string[] | null): string {
  const slugs = path === null ? [] : typeof path === 'string' ? path.split('/').filter(Boolean) : path;
  if (slugs.length === 0) return `${APP_BASE}/`;
  return `${APP_BASE}/browse/${slugs.map(encodeURIComponent).join('/')}`;
}

/**
 * Where a node is shown: its slug path, or by id when the caller cannot see an ancestor (the API
 * answers `path: null` then, since a path would name the hidden object).
 */
export function nodeHref(node: { readonly id: string; readonly path: string | null }): string {
  return node.path === null ? `${APP_BASE}/nodes/${encodeURIComponent(node.id)}` : browseHref(node.path);
}

export function signInHref(next?: string): string {
  return next ? `${APP_BASE}/sign-in?next=${encodeURIComponent(next)}` : `${APP_BASE}/sign-in`;
}
