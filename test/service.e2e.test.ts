import { describe, expect, it } from 'vitest';
import { readinessSchema, serviceDescriptionSchema } from '@portal/contracts';
import { call, expectMatchesContract } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

describe('service description and health', () => {
  it('describes the service at / with links', async () => {
    const response = await call<{ links: { rel: string; href: string }[] }>('GET', '/');
    expect(response.status).toBe(200);
    expectMatchesContract(serviceDescriptionSchema, response.body);
    expect(response.body.links.map((entry) => entry.rel)).toEqual(
      expect.arrayContaining(['service-desc', 'browser-root']),
    );
  });

  it('serves the OpenAPI 3.1.1 document', async () => {
    const response = await call<{ openapi: string; info: { version: string } }>(
      'GET',
      '/api/v1/openapi.json',
    );
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.1');
    expect(response.body.info.version).toBe('1.0.0');
  });

  it('is alive, and ready once every dependency answers', async () => {
    expect((await call('GET', '/health')).body).toEqual({ status: 'ok' });
    // The upload worker's first heartbeat may land a moment after the API starts listening.
    const deadline = Date.now() + 15_000;
    let ready = await call<{ status: string; checks: Record<string, { ok: boolean }> }>(
      'GET',
      '/health/ready',
    );
    while (ready.body.status !== 'ready' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ready = await call('GET', '/health/ready');
    }
    expect(ready.status).toBe(200);
    expectMatchesContract(readinessSchema, ready.body);
    expect(ready.body.status).toBe('ready');
    expect(Object.keys(ready.body.checks).sort()).toEqual([
      'eventStore',
      'postgres',
      'redis',
      's3',
      'uploadWorker',
    ]);
    for (const check of Object.values(ready.body.checks)) expect(check.ok).toBe(true);
  });
});
