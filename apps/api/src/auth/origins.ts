import type { Request } from 'express';
import type { Config } from '@portal/platform';
import { baseUrlOf } from '../http/base-url.js';

export type OriginSettings = Pick<Config, 'CORS_ORIGINS' | 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>;

/** An origin listed in `CORS_ORIGINS`: a browser app on it may call the API with credentials. */
export function isCorsOrigin(config: OriginSettings, origin: string): boolean {
  return config.CORS_ORIGINS.includes(origin);
}

/** The API's own origin or a listed one: where a cookie-authenticated write may come from. */
export function isTrustedOrigin(req: Request, config: OriginSettings, origin: string): boolean {
  if (isCorsOrigin(config, origin)) return true;
  try {
    return new URL(baseUrlOf(req, config)).origin === origin;
  } catch {
    return false;
  }
}
