import { randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { isUuid, roles, type Role } from '@portal/domain';
import type { Config, Logger } from '@portal/platform';
import { ConfigError } from '@portal/platform';

/** The one algorithm issued and accepted: a token naming another (`none`, RS256 with our key as a public key) is refused. */
const ALGORITHM = 'HS256';

export interface JwtClaims {
  /** The user. */
  readonly sub: string;
  /** The organization the token acts in. */
  readonly org: string;
  /** The role when the token was issued; informative only, every request reads the current one. */
  readonly role: Role | null;
  /** Public id of the session it came from: revoking the session revokes the token. */
  readonly sid: string;
}

export interface IssuedToken {
  readonly token: string;
  readonly expiresAt: Date;
}

function claimsOf(payload: unknown): JwtClaims | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { sub, org, role, sid } = payload as Record<string, unknown>;
  if (!isUuid(sub)) return null;
  if (!isUuid(org)) return null;
  if (!isUuid(sid)) return null;
  if (role !== null && !roles.includes(role as Role)) return null;
  return { sub, org, sid, role: role as Role | null };
}

export class JwtIssuer {
  constructor(
    private readonly secret: string,
    private readonly settings: {
      readonly ttlSeconds: number;
      readonly issuer: string;
      readonly audience: string;
    },
  ) {}

  issue(claims: JwtClaims, now: Date): IssuedToken {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expires = issuedAt + this.settings.ttlSeconds;
    const token = jwt.sign({ ...claims, iat: issuedAt, exp: expires }, this.secret, {
      algorithm: ALGORITHM,
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      jwtid: randomUUID(),
    });
    return { token, expiresAt: new Date(expires * 1000) };
  }

  /** The claims of a token this service issued and that has not expired; `null` for anything else. */
  verify(token: string): JwtClaims | null {
    try {
      const payload = jwt.verify(token, this.secret, {
        algorithms: [ALGORITHM],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        complete: false,
      });
      return claimsOf(payload);
    } catch {
      return null;
    }
  }
}

/**
 * The issuer from the configuration. Production needs `JWT_SECRET` (every API instance must accept the
 * others' tokens); elsewhere a random secret per process keeps development and tests free of setup.
 */
export function jwtIssuerFrom(config: Config, logger: Logger): JwtIssuer {
  let secret = config.JWT_SECRET;
  if (secret === undefined) {
    if (config.NODE_ENV === 'production') {
      throw new ConfigError('invalid configuration: JWT_SECRET: is required when NODE_ENV=production');
    }
    logger.warn('JWT_SECRET is not set: using a random key; tokens will not survive a restart');
    secret = randomBytes(48).toString('base64url');
  }
  return new JwtIssuer(secret, {
    ttlSeconds: config.JWT_TTL_SECONDS,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });
}
