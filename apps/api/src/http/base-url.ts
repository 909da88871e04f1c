import { isIP } from 'node:net';
import type { Request } from 'express';
import { ConfigError, type Config } from '@portal/platform';

type BaseUrlSettings = Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>;

/** A host name or address with an optional port: nothing that could break out of a URL. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * In production the `Host` header, which the client chooses, must never become the base of the links
 * the API writes (a shared cache would hand every client links to the attacker's host): the API
 * refuses to start there without `PUBLIC_BASE_URL`.
 */
export function requirePublicBaseUrl(config: Pick<Config, 'NODE_ENV' | 'PUBLIC_BASE_URL'>): void {
  if (config.NODE_ENV === 'production' && config.PUBLIC_BASE_URL === undefined) {
    throw new ConfigError(
      'invalid configuration: PUBLIC_BASE_URL: is required when NODE_ENV=production (the public https:// URL of the API)',
    );
  }
}

/** `[::1]:3000` → `::1`, `Localhost.:3000` → `localhost`. */
function hostnameOf(host: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(host);
  const name = bracketed?.[1] ?? host.replace(/:\d+$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

/** `::ffff:127.0.0.1` → `127.0.0.1`: how a dual-stack socket reports an IPv4 peer. */
function unmapped(address: string): string {
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}

/**
 * A host that names this machine: `localhost` (and `*.localhost`), a loopback address, or the very
 * address the connection arrived at. Nothing an attacker's name can be.
 */
function isLocalHost(hostname: string, localAddress: string | undefined): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  const address = unmapped(hostname);
  if (isIP(address) === 0) return false;
  if (address === '::1' || /^127\./.test(address)) return true;
  return localAddress !== undefined && unmapped(localAddress).toLowerCase() === address;
}

/** The address and port the connection arrived at, as a URL authority. */
function localAuthority(req: Request, config: BaseUrlSettings): string {
  const address = req.socket.localAddress ? unmapped(req.socket.localAddress) : config.HOST;
  const port = req.socket.localPort ?? config.PORT;
  return `${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
}

/**
 * Where absolute links point: `PUBLIC_BASE_URL` when set (always in production). Without it, the
 * request's `Host` when it names this machine (development: `localhost:3000`, `127.0.0.1:<port>`, the
 * address the client connected to), else the address the connection arrived at: any other `Host` is
 * the client's invention and never appears in a link.
 */
export function baseUrlOf(req: Request, config: BaseUrlSettings): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  const host = req.get('host');
  if (
    host &&
    PLAIN_HOST.test(host) &&
    isLocalHost(hostnameOf(host), req.socket.localAddress) &&
    URL.canParse(`${req.protocol}://${host}`)
  ) {
    return `${req.protocol}://${host}`;
  }
  return `${req.protocol}://${localAuthority(req, config)}`;
}

/** Resolves a stored href against the base (one rule for the API and the items the projector stores). */
export { absoluteHref } from '@portal/read-model-portal-objects';
