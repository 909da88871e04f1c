import { describe, expect, it } from 'vitest';
import { jwtOf, signUp } from './support/auth.js';
import { call, type JsonResponse } from './support/http.js';

/** Every answer can depend on who asks: a cache must key it by both credentials. */
function expectVariesByCredential(response: JsonResponse): void {
  const vary = (response.headers.get('vary') ?? '').toLowerCase().split(/\s*,\s*/);
  expect(vary).toEqual(expect.arrayContaining(['authorization', 'cookie']));
}

describe('caching: answers that depend on credentials are never shared or stored', () => {
  it('sign-up, sign-in, get-session (with its CSRF token) and token answer no-store', async () => {
    const user = await signUp();
    const responses = [
      await call('POST', '/api/auth/sign-in/email', { body: { email: user.email, password: user.password } }),
      await call('GET', '/api/auth/get-session', { headers: user.headers }),
      await call('POST', '/api/auth/token', { headers: user.headers }),
      await call('POST', '/api/auth/sign-up/email', {
        body: { email: `cache-${user.email}`, password: user.password, name: 'Cache' },
      }),
    ];
    for (const response of responses) {
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expectVariesByCredential(response);
    }
  });

  it('a private read, and a refused credential, answer private, no-store', async () => {
    const user = await signUp();
    const bearer = await jwtOf(user);
    const own = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
      headers: bearer.headers,
      body: { title: 'Private', description: 'cache test', links: [], visibility: 'private' },
    });
    expect([201, 202]).toContain(own.status);
    const read = await call('GET', `/api/v1/portal/items/${own.body.portalItemId}`, {
      headers: { ...bearer.headers, 'x-min-position': own.headers.get('x-event-position') ?? '' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('private, no-store');
    expectVariesByCredential(read);

    const sessionRead = await call('GET', '/api/v1/users/me', { headers: user.headers });
    expect(sessionRead.status).toBe(200);
    expect(sessionRead.headers.get('cache-control')).toBe('private, no-store');

    const refused = await call('GET', '/api/v1/portal/items/', {
      headers: { authorization: 'Bearer nonsense' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('private, no-store');
  });

  it('an anonymous read of a public object stays cacheable, varying by credential', async () => {
    const user = await signUp();
    const bearer = await jwtOf(user);
    const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
      headers: bearer.headers,
      body: { title: 'Public', description: 'cache test', links: [], visibility: 'public' },
    });
    expect([201, 202]).toContain(created.status);
    const read = await call('GET', `/api/v1/portal/items/${created.body.portalItemId}`, {
      as: 'anonymous',
      headers: { 'x-min-position': created.headers.get('x-event-position') ?? '' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control') ?? '').not.toMatch(/no-store|private/);
    expectVariesByCredential(read);
  });
});

describe('validators: an object revalidates by its revision, a page carries no hash of its body', () => {
  it('answers a public object 304 for its revision, and a STAC search or a list with no ETag', async () => {
    const user = await signUp();
    const bearer = await jwtOf(user);
    const created = await call<{ portalItemId: string }>('POST', '/api/v1/portal/collections/create', {
      headers: bearer.headers,
      body: { title: 'Validators', description: 'cache test', links: [], visibility: 'public' },
    });
    expect([201, 202]).toContain(created.status);
    const id = created.body.portalItemId;
    const seen = { 'x-min-position': created.headers.get('x-event-position') ?? '' };

    const read = await call('GET', `/api/v1/portal/items/${id}`, { as: 'anonymous', headers: seen });
    expect(read.headers.get('etag')).toBe('"0"');
    const again = await call('GET', `/api/v1/portal/items/${id}`, {
      as: 'anonymous',
      // fetch adds `Cache-Control: no-cache` to a conditional request unless one is given.
      headers: { ...seen, 'if-none-match': '"0"', 'cache-control': 'max-age=0' },
    });
    expect(again.status).toBe(304);

    // Hashing every 100–200 KB page cost CPU on each request for a validator no client sends back.
    for (const path of [
      `/api/v1/stac/search?collections=${id}`,
      '/api/v1/stac/collections',
      '/api/v1/portal/items/',
    ]) {
      const page = await call('GET', path, { as: 'anonymous', headers: seen });
      expect(page.status, path).toBe(200);
      expect(page.headers.get('etag'), path).toBeNull();
    }
  });
});
