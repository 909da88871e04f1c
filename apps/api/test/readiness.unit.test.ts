import { describe, expect, it } from 'vitest';
import { runReadinessChecks, type ReadinessCheck } from '../src/health/readiness.js';

const up = (name: string, critical: boolean): ReadinessCheck => ({
  name,
  critical,
  check: () => Promise.resolve({ ok: true }),
});
const down = (name: string, critical: boolean): ReadinessCheck => ({
  name,
  critical,
  check: () => Promise.reject(new Error('connection refused')),
});

describe('readiness', () => {
  it('is ready when every check answers', async () => {
    expect((await runReadinessChecks([up('postgres', true), up('redis', false)])).status).toBe('ready');
  });

  it('is degraded when only a non-critical dependency is down, and says which', async () => {
    const report = await runReadinessChecks([up('postgres', true), down('redis', false)]);
    expect(report.status).toBe('degraded');
    expect(report.checks.redis).toEqual({ ok: false, error: 'down' });
  });

  it('is not ready when a critical dependency is down', async () => {
    expect((await runReadinessChecks([down('postgres', true), up('redis', false)])).status).toBe('not-ready');
  });
});
