import type { Request } from 'express';
import type { Config } from '@portal/platform';

/** A host name or address with an optional port: nothing that could break out of a URL. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * Where absolute links point: `PUBLIC_BASE_URL` when set — set it in production, because the `Host`
 * header is the client's to choose — else this request's origin when its Host is a plain host name.
 */
export function baseUrlOf(req: Request, config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  const host = req.get('host');
  if (host && PLAIN_HOST.test(host) && URL.canParse(`${req.protocol}://${host}`))
    return `${req.protocol}://${host}`;
  return `${req.protocol}://${config.HOST}:${config.PORT}`;
}

/** Resolves a stored href against the base; an href that is not a URL at all is returned unchanged. */
export function absoluteHref(href: string, baseUrl: string): string {
  try {
    return new URL(href, `${baseUrl}/`).toString();
  } catch {
    return href;
  }
}
