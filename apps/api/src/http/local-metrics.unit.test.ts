import { describe, expect, it } from 'vitest';
import { isLocalDirectRequest, isLoopbackAddress, localMetricsEnabled } from './local-metrics.js';

const request = (remoteAddress: string | undefined, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as Parameters<typeof isLocalDirectRequest>[0];

describe('metrics on the API port', () => {
  it('counts 127.0.0.0/8 and ::1 as loopback, also IPv4-mapped, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.9']) {
      expect(isLoopbackAddress(address)).toBe(true);
    }
    for (const address of [
      '10.0.0.1',
      '192.168.1.10',
      '::ffff:10.0.0.1',
      'fe80::1',
      '1127.0.0.1',
      undefined,
    ]) {
      expect(isLoopbackAddress(address)).toBe(false);
    }
  });

  it('answers a local request only when no proxy relayed it', () => {
    expect(isLocalDirectRequest(request('127.0.0.1'))).toBe(true);
    expect(isLocalDirectRequest(request('10.1.2.3'))).toBe(false);
    for (const header of [
      'forwarded',
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
      'x-real-ip',
      'via',
    ]) {
      expect(isLocalDirectRequest(request('127.0.0.1', { [header]: '203.0.113.7' }))).toBe(false);
    }
  });

  it('is served only outside production and where no proxy is trusted', () => {
    expect(localMetricsEnabled({ NODE_ENV: 'development', TRUST_PROXY: false })).toBe(true);
    expect(localMetricsEnabled({ NODE_ENV: 'test', TRUST_PROXY: false })).toBe(true);
    expect(localMetricsEnabled({ NODE_ENV: 'production', TRUST_PROXY: false })).toBe(false);
    expect(localMetricsEnabled({ NODE_ENV: 'development', TRUST_PROXY: 1 })).toBe(false);
    expect(localMetricsEnabled({ NODE_ENV: 'development', TRUST_PROXY: ['loopback'] })).toBe(false);
  });
});
