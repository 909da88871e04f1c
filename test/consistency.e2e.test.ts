import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

const catalogPath = '/api/v1/portal/catalogs/create';

describe('consistency a frontend and a pipeline can rely on', () => {
  it('answers 202 with the position under Prefer: respond-async, and X-Min-Position reads it', async () => {
    const created = await call<{ portalItemId: string }>('POST', catalogPath, {
      body: { title: 'Async', description: 'x', links: [] },
      headers: { prefer: 'respond-async' },
    });
    expect(created.status).toBe(202);
    expect(created.headers.get('preference-applied')).toBe('respond-async');
    const position = created.headers.get('x-event-position');
    expect(position).toMatch(/^\d+\.\d+$/);

    const read = await call('GET', `/api/v1/portal/catalogs/${created.body.portalItemId}`, {
      headers: { 'x-min-position': position ?? '' },
    });
    expect(read.status).toBe(200);
  });

  it('answers 400 at once for an X-Min-Position beyond every event, which no wait could reach', async () => {
    const response = await call('GET', '/api/v1/portal/catalogs/', {
      headers: { 'x-min-position': '99999999999.99999999999' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'POSITION_NOT_REACHABLE' });
    expect(response.body).toHaveProperty('message');
  });

  it('replays the first response for a retried Idempotency-Key and refuses another body', async () => {
    const key = randomUUID();
    const body = { title: 'Once', description: 'x', links: [] };
    const first = await call<{ portalItemId: string }>('POST', catalogPath, {
      body,
      headers: { 'idempotency-key': key },
    });
    const retry = await call<{ portalItemId: string }>('POST', catalogPath, {
      body,
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.portalItemId).toBe(first.body.portalItemId);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));

    const other = await call('POST', catalogPath, {
      body: { ...body, title: 'Twice' },
      headers: { 'idempotency-key': key },
    });
    expect(other.status).toBe(422);
  });
});
