import type { Redis } from 'ioredis';
import type { Config, Logger } from '@portal/platform';
import { ApiKeyCache } from './api-key-cache.js';
import { jwtIssuerFrom, type JwtIssuer } from './jwt.js';
import { DummyPasswordHash } from './passwords.js';
import { SignInRateLimiter } from './sign-in-rate-limit.js';
import { SignUpRateLimiter } from './sign-up-rate-limit.js';

/** What authentication keeps for the life of the process; built once in `main.ts`. */
export interface AuthServices {
  readonly jwt: JwtIssuer;
  readonly signInLimiter: SignInRateLimiter;
  readonly signUpLimiter: SignUpRateLimiter;
  readonly dummyHash: DummyPasswordHash;
  /** Emptied whenever identity facts may have changed. */
  readonly apiKeys: ApiKeyCache;
}

/** Where the API hears that identity facts may have changed (the projection waiter's signal). */
export interface IdentityChanges {
  onIdentityChange(listener: () => void): void;
}

export function createAuthServices(
  config: Config,
  logger: Logger,
  redis: Redis,
  identityChanges: IdentityChanges,
): AuthServices {
  const dummyHash = new DummyPasswordHash(config.PASSWORD_SCRYPT_COST);
  // Made now, so the first sign-in with an unknown email does not take twice as long as the others.
  dummyHash.value().catch((error: unknown) => {
    logger.error({ err: error }, 'could not prepare the dummy password hash');
  });
  const apiKeys = new ApiKeyCache();
  identityChanges.onIdentityChange(() => {
    apiKeys.clear();
  });
  return {
    jwt: jwtIssuerFrom(config, logger),
    signInLimiter: new SignInRateLimiter(redis, `${config.QUEUE_PREFIX}:auth`, {
      maxFailures: config.SIGN_IN_MAX_ATTEMPTS,
      windowSeconds: config.SIGN_IN_WINDOW_SECONDS,
    }),
    signUpLimiter: new SignUpRateLimiter(redis, `${config.QUEUE_PREFIX}:auth`, {
      maxPerAddress: config.SIGN_UP_MAX_PER_ADDRESS,
      windowSeconds: config.SIGN_UP_WINDOW_SECONDS,
    }),
    dummyHash,
    apiKeys,
  };
}
