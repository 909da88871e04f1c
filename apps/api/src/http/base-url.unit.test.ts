import type { Request } from 'express';
import { loadConfig } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { baseUrlOf, requirePublicBaseUrl } from './base-url.js';

const development = { PUBLIC_BASE_URL: undefined, HOST: '0.0.0.0', PORT: 3000 };

/** A request that arrived at `localAddress:localPort` with the given Host header. */
function requestWith(host: string | undefined, localAddress = '10.1.2.3', localPort = 3000): Request {
  return {
    get: (name: string) => (name.toLowerCase() === 'host' ? host : undefined),
    protocol: 'http',
    socket: { localAddress, localPort },
  } as unknown as Request;
}

describe('requirePublicBaseUrl', () => {
  it('refuses to start in production without PUBLIC_BASE_URL, naming it', () => {
    expect(() => {
      requirePublicBaseUrl(loadConfig({ NODE_ENV: 'production' }));
    }).toThrow(/PUBLIC_BASE_URL: is required when NODE_ENV=production/);
  });

  it('starts in production with it, and anywhere else without it', () => {
    const config = loadConfig({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://portal.example.org' });
    expect(() => {
      requirePublicBaseUrl(config);
    }).not.toThrow();
    expect(() => {
      requirePublicBaseUrl(loadConfig({ NODE_ENV: 'development' }));
    }).not.toThrow();
    expect(() => {
      requirePublicBaseUrl(loadConfig({ NODE_ENV: 'test' }));
    }).not.toThrow();
  });
});

describe('baseUrlOf', () => {
  it('uses PUBLIC_BASE_URL whatever the Host says', () => {
    const config = { ...development, PUBLIC_BASE_URL: 'https://portal.example.org/' };
    expect(baseUrlOf(requestWith('evil.example'), config)).toBe('https://portal.example.org');
  });

  it.each(['localhost:3000', 'LOCALHOST', 'app.localhost:8080', '127.0.0.1:3000', '127.9.9.9', '[::1]:3000'])(
    'without it, takes the local Host %s',
    (host) => {
      expect(baseUrlOf(requestWith(host), development)).toBe(`http://${host}`);
    },
  );

  it('takes a Host naming the address the connection arrived at', () => {
    expect(baseUrlOf(requestWith('10.1.2.3:3000', '10.1.2.3'), development)).toBe('http://10.1.2.3:3000');
    expect(baseUrlOf(requestWith('10.1.2.3:3000', '::ffff:10.1.2.3'), development)).toBe(
      'http://10.1.2.3:3000',
    );
  });

  it.each(['evil.example', 'evil.example:3000', '10.9.9.9:3000', 'localhost.evil.example', 'a"b', undefined])(
    'never puts the Host %s into a link: the connection address stands in',
    (host) => {
      expect(baseUrlOf(requestWith(host, '10.1.2.3', 3000), development)).toBe('http://10.1.2.3:3000');
      expect(baseUrlOf(requestWith(host, '::ffff:127.0.0.1', 4000), development)).toBe(
        'http://127.0.0.1:4000',
      );
      expect(baseUrlOf(requestWith(host, 'fd00::5', 4000), development)).toBe('http://[fd00::5]:4000');
    },
  );
});
