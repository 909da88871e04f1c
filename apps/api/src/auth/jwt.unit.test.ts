import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@portal/platform';
import { JwtIssuer, jwtIssuerFrom } from './jwt.js';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const settings = { ttlSeconds: 900, issuer: 'portal-catalog-service', audience: 'portal-catalog-service' };
const issuer = new JwtIssuer(SECRET, settings);
const claims = { sub: randomUUID(), org: randomUUID(), role: 'editor' as const, sid: randomUUID() };

function encode(part: object): string {
  return Buffer.from(JSON.stringify(part)).toString('base64url');
}

describe('JWT issuer', () => {
  it('issues HS256 tokens it verifies, with the claims, issuer, audience and expiry', () => {
    const now = new Date();
    const { token, expiresAt } = issuer.issue(claims, now);
    expect(expiresAt.getTime() - Math.floor(now.getTime() / 1000) * 1000).toBe(900_000);
    expect(issuer.verify(token)).toEqual(claims);
    const decoded = jwt.decode(token, { complete: true });
    expect(decoded?.header.alg).toBe('HS256');
    expect(decoded?.payload).toMatchObject({ ...claims, iss: settings.issuer, aud: settings.audience });
  });

  it('refuses an expired token', () => {
    const { token } = issuer.issue(claims, new Date(Date.now() - 901_000));
    expect(issuer.verify(token)).toBeNull();
  });

  it('refuses a token signed with another key', () => {
    const other = new JwtIssuer('another-secret-of-at-least-32-characters', settings);
    expect(issuer.verify(other.issue(claims, new Date()).token)).toBeNull();
  });

  it('refuses alg none, however it is spelled', () => {
    const payload = {
      ...claims,
      iss: settings.issuer,
      aud: settings.audience,
      exp: Math.floor(Date.now() / 1000) + 60,
    };
    for (const alg of ['none', 'None', 'NONE']) {
      expect(issuer.verify(`${encode({ alg, typ: 'JWT' })}.${encode(payload)}.`)).toBeNull();
    }
  });

  it('refuses another HMAC algorithm, even with the right key', () => {
    const token = jwt.sign(claims, SECRET, {
      algorithm: 'HS512',
      issuer: settings.issuer,
      audience: settings.audience,
      expiresIn: 60,
    });
    expect(issuer.verify(token)).toBeNull();
  });

  it('refuses the wrong audience or issuer', () => {
    const otherAudience = new JwtIssuer(SECRET, { ...settings, audience: 'another-service' });
    expect(issuer.verify(otherAudience.issue(claims, new Date()).token)).toBeNull();
    const otherIssuer = new JwtIssuer(SECRET, { ...settings, issuer: 'someone-else' });
    expect(issuer.verify(otherIssuer.issue(claims, new Date()).token)).toBeNull();
  });

  it('refuses a validly signed token without the claims this service puts in', () => {
    const token = jwt.sign({ sub: claims.sub }, SECRET, {
      algorithm: 'HS256',
      issuer: settings.issuer,
      audience: settings.audience,
      expiresIn: 60,
    });
    expect(issuer.verify(token)).toBeNull();
  });

  it('needs JWT_SECRET in production, and makes a random one elsewhere with a warning', () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) } as unknown as Parameters<
      typeof jwtIssuerFrom
    >[1];
    expect(() => jwtIssuerFrom(loadConfig({ NODE_ENV: 'production' }), logger)).toThrow(/JWT_SECRET/);
    const first = jwtIssuerFrom(loadConfig({ NODE_ENV: 'development' }), logger);
    const second = jwtIssuerFrom(loadConfig({ NODE_ENV: 'development' }), logger);
    expect(warnings).toHaveLength(2);
    expect(second.verify(first.issue(claims, new Date()).token)).toBeNull();
    const configured = jwtIssuerFrom(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }), logger);
    expect(issuer.verify(configured.issue(claims, new Date()).token)).toEqual(claims);
  });
});
