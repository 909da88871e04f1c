import type { Request } from 'express';
import type { PageLink } from '@portal/contracts';
import type { Config } from '@portal/platform';
import { baseUrlOf } from '../http/base-url.js';

/** A query value as a URL carries it: lists comma-separated, absent values left out. */
export type LinkQuery = Readonly<Record<string, string | number | readonly string[] | undefined>>;

/**
 * The `rel: "next"` link of a page, built from the parsed query (so repeated parameters such as
 * `kind=a&kind=b` survive as `kind=a,b`) and pointing at `path`, which need not be the request's own:
 * the path lookup's first page continues at the node's children endpoint.
 */
export function nextPageLinks(
  req: Request,
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>,
  path: string,
  query: LinkQuery,
  next: string | null,
): PageLink[] {
  if (next === null) return [];
  const url = new URL(`${baseUrlOf(req, config)}${path}`);
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    url.searchParams.set(name, typeof value === 'object' ? value.join(',') : String(value));
  }
  url.searchParams.set('cursor', next);
  return [{ rel: 'next', href: url.toString(), type: 'application/json' }];
}
