import type { Request } from 'express';
import type { Config } from '@portal/platform';
import { baseUrlOf } from './base-url.js';

/** The list envelope: the page, the opaque cursor of the next one, and a `rel: "next"` link to it. */
export function listPage<T>(
  req: Request,
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>,
  page: { readonly items: readonly T[]; readonly next: string | null },
) {
  const links: { rel: 'next'; href: string; type: string }[] = [];
  if (page.next !== null) {
    const url = new URL(`${baseUrlOf(req, config)}${req.baseUrl}${req.path}`);
    for (const [name, value] of Object.entries(req.query)) {
      if (typeof value === 'string' && name !== 'cursor') url.searchParams.set(name, value);
    }
    url.searchParams.set('cursor', page.next);
    links.push({ rel: 'next', href: url.toString(), type: 'application/json' });
  }
  return { items: page.items, next: page.next, links };
}
