import type { Request } from 'express';
import type { Config } from '@portal/platform';

/** Where absolute links point: `PUBLIC_BASE_URL` when set (behind a proxy), else this request's origin. */
export function baseUrlOf(req: Request, config: Pick<Config, 'PUBLIC_BASE_URL'>): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** Resolves a stored href against the base; an href that is not a URL at all is returned unchanged. */
export function absoluteHref(href: string, baseUrl: string): string {
  try {
    return new URL(href, `${baseUrl}/`).toString();
  } catch {
    return href;
  }
}
