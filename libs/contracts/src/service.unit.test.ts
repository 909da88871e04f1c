import { describe, expect, it } from 'vitest';
import { readinessSchema } from './service.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

describe('readiness', () => {
  it.each([
    {
      status: 'ready',
      checks: { postgres: { ok: true }, eventStore: { ok: true, detail: { position: '42' } } },
    },
    {
      status: 'degraded',
      checks: { postgres: { ok: true }, redis: { ok: false, error: 'no answer within 2000 ms' } },
    },
    {
      status: 'not-ready',
      checks: { postgres: { ok: false, error: 'connection refused' }, s3: { ok: true } },
    },
  ])('accepts what the API answers when $status', (report) => {
    expect(acceptanceOf(readinessSchema, report)).toEqual(report);
  });

  it.each(['not_ready', 'up', 'ok'])('refuses the status %j', (status) => {
    expect(rejectionOf(readinessSchema, { status, checks: {} }).details.map((detail) => detail.path)).toEqual(
      ['status'],
    );
  });

  it('needs a boolean ok in every check', () => {
    expect(
      rejectionOf(readinessSchema, { status: 'ready', checks: { redis: { status: 'up' } } }).details.map(
        (detail) => detail.path,
      ),
    ).toEqual(['checks.redis.ok']);
  });
});
