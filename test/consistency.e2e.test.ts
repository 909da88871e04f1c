import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { signUp, useSignedInCaller } from './support/auth.js';

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

  it('scopes Idempotency-Key to the route: a trailing slash replays, another case is no route', async () => {
    const key = randomUUID();
    const title = `Idem ${randomUUID()}`;
    const created = await call<{ portalItemId: string }>('POST', catalogPath, {
      body: { title, description: 'x', links: [] },
      headers: { 'idempotency-key': key },
    });
    expect(created.status).toBe(201);
    const slashed = await call<{ portalItemId: string }>('POST', `${catalogPath}/`, {
      // The same body, its fields in another order.
      body: { links: [], description: 'x', title },
      headers: { 'idempotency-key': key },
    });
    expect(slashed.status).toBe(201);
    expect(slashed.headers.get('idempotent-replayed')).toBe('true');
    expect(slashed.body.portalItemId).toBe(created.body.portalItemId);
    const shouted = await call('POST', catalogPath.toUpperCase(), {
      body: { title, description: 'x', links: [] },
      headers: { 'idempotency-key': key },
    });
    expect(shouted.status).toBe(404);
    expect(await catalogsTitled(title)).toBe(1);
  });

  it('creates one object for concurrent duplicates of one Idempotency-Key', async () => {
    const key = randomUUID();
    const title = `Idem ${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call<{ portalItemId?: string; code?: string }>('POST', catalogPath, {
          body: { title, description: 'x', links: [] },
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    for (const answer of answers) {
      if (answer.status === 409) expect(answer.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
      else expect([201, 202]).toContain(answer.status);
    }
    const done = answers.filter((answer) => answer.status !== 409);
    expect(new Set(done.map((answer) => answer.body.portalItemId)).size).toBe(1);
    // A create slower than the projection answers 202: read once its position is projected.
    expect(await catalogsTitled(title, done[0]?.headers.get('x-event-position'))).toBe(1);
  });

  it("never replays one caller's response to another caller with the same key", async () => {
    const key = randomUUID();
    const body = { title: `Idem ${randomUUID()}`, description: 'x', links: [] };
    const mine = await call<{ portalItemId: string }>('POST', catalogPath, {
      body,
      headers: { 'idempotency-key': key },
    });
    const someoneElse = await signUp();
    const theirs = await call<{ portalItemId: string }>('POST', catalogPath, {
      body,
      headers: { ...someoneElse.headers, 'idempotency-key': key },
    });
    expect(mine.status).toBe(201);
    expect([201, 202]).toContain(theirs.status);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.portalItemId).not.toBe(mine.body.portalItemId);
  });
});

/** How many catalogs the caller sees with exactly this title, once everything written is projected. */
async function catalogsTitled(title: string, position?: string | null): Promise<number> {
  const page = await call<{ items: { title: string }[] }>(
    'GET',
    `/api/v1/portal/inventory/?kind=catalog&q=${encodeURIComponent(title)}&limit=100`,
    { headers: position ? { 'x-min-position': position } : {} },
  );
  expect(page.status).toBe(200);
  return page.body.items.filter((item) => item.title === title).length;
}
