import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { currentUserSchema, sessionViewSchema, tokenSchema } from '@portal/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jwtOf, sessionCookieOf, signIn, signUp, uniqueEmail } from './support/auth.js';
import { call, callAt, expectCommand, expectMatchesContract, type JsonResponse } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

/** The stacks' `SIGN_IN_MAX_ATTEMPTS` (the default). */
const SIGN_IN_LIMIT = 10;

/** A client address of its own (the stack trusts X-Forwarded-For from loopback), for rate-limit tests. */
function clientAddress(): Record<string, string> {
  const bytes = randomBytes(3);
  return { 'x-forwarded-for': `10.${bytes[0] ?? 0}.${bytes[1] ?? 0}.${bytes[2] ?? 0}` };
}

function signInBody(email: string, password: string) {
  return { body: { email, password }, headers: clientAddress() };
}

function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header, payload] = token.split('.');
  const decode = (part: string | undefined) =>
    JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: decode(header), payload: decode(payload) };
}

function encodeJwt(header: object, payload: object, signature = ''): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  return `${encode(header)}.${encode(payload)}.${signature}`;
}

describe('sign-up', () => {
  it('creates the user and a personal organization they own, and signs them in', async () => {
    const email = uniqueEmail('ada');
    const response = await call('POST', '/api/auth/sign-up/email', {
      body: { email, password: 'correct horse battery', name: 'Ada Lovelace' },
    });
    await expectCommand(response, 201, 'sign-up');
    expectMatchesContract(sessionViewSchema, response.body);
    expect(response.body).toMatchObject({
      credential: 'session',
      user: { email, name: 'Ada Lovelace' },
      activeOrganization: { name: 'Ada Lovelace', personal: true, role: 'owner' },
    });
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('session='));
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Expires=/);
    // Over plain HTTP the cookie cannot be Secure, or the browser would never send it back.
    expect(cookie).not.toMatch(/; Secure/);

    const session = await call('GET', '/api/auth/get-session', {
      headers: { cookie: sessionCookieOf(response) },
    });
    expect(session.status).toBe(200);
    expect(session.body).toEqual(response.body);
  });

  it('marks the cookie Secure when the request came over HTTPS through the trusted proxy', async () => {
    const response = await call('POST', '/api/auth/sign-up/email', {
      body: { email: uniqueEmail(), password: 'correct horse battery', name: 'Sec' },
      headers: { 'x-forwarded-proto': 'https' },
    });
    await expectCommand(response, 201, 'sign-up');
    expect(response.headers.getSetCookie().find((value) => value.startsWith('session='))).toMatch(/; Secure/);
  });

  it('refuses a second account for an email, whatever its case', async () => {
    const user = await signUp();
    const response = await call('POST', '/api/auth/sign-up/email', {
      body: { email: user.email.toUpperCase(), password: 'another password', name: 'Copy' },
    });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'ALREADY_EXISTS', message: expect.any(String) as unknown });
  });

  it('names each invalid field', async () => {
    const response = await call('POST', '/api/auth/sign-up/email', {
      body: { email: 'not-an-email', password: 'short', name: '' },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(
      'invalid sign-up: email: must be an email address; password: must be at least 8 characters; name: must be at least 1 character',
    );
  });
});

describe('sign-up rate limit (a stack of its own)', () => {
  const limit = 3;
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ SIGN_UP_MAX_PER_ADDRESS: String(limit), SIGN_UP_WINDOW_SECONDS: '3600' });
  });
  afterAll(async () => {
    await stack.stop();
  });

  const signUpFrom = (headers: Record<string, string>) =>
    callAt(stack.baseUrl, 'POST', '/api/auth/sign-up/email', {
      body: { email: uniqueEmail(), password: 'correct horse battery', name: 'Many' },
      headers,
    });

  it('lets at most the limit of parallel sign-ups from one address through, then 429 with Retry-After', async () => {
    const address = clientAddress();
    const responses = await Promise.all(Array.from({ length: 12 }, () => signUpFrom(address)));
    // 202: signed up, the projection slower than the API waits (a busy machine).
    const signedUp = (status: number) => status === 201 || status === 202;
    expect(responses.filter((response) => signedUp(response.status))).toHaveLength(limit);
    const refused = responses.filter((response) => !signedUp(response.status));
    expect(refused.map((response) => response.status)).toEqual(Array<number>(12 - limit).fill(429));
    for (const response of refused) {
      expect(response.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    }
    expect((await signUpFrom(address)).status).toBe(429);
    // Another address is not held back by this one.
    expect(signedUp((await signUpFrom(clientAddress())).status)).toBe(true);
  });
});

describe('sign-in', () => {
  it('answers a wrong password and an unknown email alike', async () => {
    const user = await signUp();
    const wrong = await call('POST', '/api/auth/sign-in/email', signInBody(user.email, 'wrong password'));
    const unknown = await call('POST', '/api/auth/sign-in/email', signInBody(uniqueEmail(), 'whatever1'));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('starts a new session on every sign-in and never adopts a cookie sent with it (session fixation)', async () => {
    const user = await signUp();
    const planted = `session=${randomBytes(32).toString('base64url')}`;
    const first = await call('POST', '/api/auth/sign-in/email', {
      ...signInBody(user.email, user.password),
      headers: { ...clientAddress(), cookie: planted },
    });
    expect(first.status).toBe(200);
    expectMatchesContract(sessionViewSchema, first.body);
    const firstCookie = sessionCookieOf(first);
    expect(firstCookie).not.toBe(planted);
    expect(firstCookie).not.toBe(user.cookie);

    // Signing in again while signed in gives yet another session; the one sent along stays its own.
    const second = await call('POST', '/api/auth/sign-in/email', {
      ...signInBody(user.email, user.password),
      headers: { ...clientAddress(), cookie: firstCookie },
    });
    expect(second.status).toBe(200);
    expect(sessionCookieOf(second)).not.toBe(firstCookie);
    const ids = [first, second].map((response) => (response.body as { session: { id: string } }).session.id);
    expect(new Set(ids).size).toBe(2);

    // The planted value never became a session.
    const withPlanted = await call('GET', '/api/auth/get-session', { headers: { cookie: planted } });
    expect(withPlanted.status).toBe(401);
  });

  it('locks an email after too many failures, even for the right password, with Retry-After', async () => {
    const user = await signUp();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      // A new address each time: only the email's count reaches the limit.
      const response = await call('POST', '/api/auth/sign-in/email', signInBody(user.email, 'bad guess'));
      expect(response.status).toBe(401);
    }
    const locked = await call('POST', '/api/auth/sign-in/email', signInBody(user.email, user.password));
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // The session the user already has keeps working.
    expect((await call('GET', '/api/v1/protected', { headers: user.headers })).status).toBe(200);
  });

  it('locks a client address after too many failures across emails', async () => {
    const victim = await signUp();
    const address = clientAddress();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await call('POST', '/api/auth/sign-in/email', {
        body: { email: uniqueEmail('guess'), password: 'bad guess' },
        headers: address,
      });
      expect(response.status).toBe(401);
    }
    const fromThere = await call('POST', '/api/auth/sign-in/email', {
      body: { email: victim.email, password: victim.password },
      headers: address,
    });
    expect(fromThere.status).toBe(429);
    expect(Number(fromThere.headers.get('retry-after'))).toBeGreaterThan(0);
    // Elsewhere the same account signs in.
    await expect(signIn(victim)).resolves.toMatchObject({ userId: victim.userId });
  });
});

describe('sign-in rate limit under parallel attempts', () => {
  /** Every attempt at once: none has finished its password check when the others start. */
  async function inParallel(
    attempts: number,
    body: (index: number) => object,
    headers: (index: number) => Record<string, string>,
  ) {
    return Promise.all(
      Array.from({ length: attempts }, (_, index) =>
        call('POST', '/api/auth/sign-in/email', {
          body: body(index),
          headers: headers(index),
        }),
      ),
    );
  }

  function expectAtMostTheLimitAnswered(responses: readonly JsonResponse[]): void {
    const answered = responses.filter((response) => response.status !== 429);
    expect(answered.length).toBeLessThanOrEqual(SIGN_IN_LIMIT);
    expect(answered.every((response) => response.status === 401)).toBe(true);
    for (const refused of responses.filter((response) => response.status === 429)) {
      expect(refused.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  }

  it('counts parallel wrong passwords for one email before checking them', async () => {
    const user = await signUp();
    const responses = await inParallel(
      40,
      () => ({ email: user.email, password: 'bad guess' }),
      () => clientAddress(),
    );
    expectAtMostTheLimitAnswered(responses);
    const locked = await call('POST', '/api/auth/sign-in/email', signInBody(user.email, user.password));
    expect(locked.status).toBe(429);
  });

  it('counts parallel wrong passwords from one address before checking them', async () => {
    const address = clientAddress();
    const responses = await inParallel(
      40,
      () => ({ email: uniqueEmail('guess'), password: 'bad guess' }),
      () => address,
    );
    expectAtMostTheLimitAnswered(responses);
  });
});

describe('sessions, tokens and sign-out', () => {
  it('describes an anonymous caller with nulls', async () => {
    const response = await call('GET', '/api/auth/get-session');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      credential: 'anonymous',
      user: null,
      session: null,
      activeOrganization: null,
      csrfToken: null,
    });
  });

  it('issues an HS256 JWT with the session, organization and role, by GET or POST', async () => {
    const user = await signUp();
    const got = await call('GET', '/api/auth/token', { headers: { cookie: user.cookie } });
    expect(got.status).toBe(200);
    expectMatchesContract(tokenSchema, got.body);
    const { header, payload } = decodeJwt(String(got.body.token));
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const session = await call<{ session: { id: string } }>('GET', '/api/auth/get-session', {
      headers: user.headers,
    });
    expect(payload).toMatchObject({
      sub: user.userId,
      org: user.orgId,
      role: 'owner',
      sid: session.body.session.id,
      iss: 'portal-catalog-service',
      aud: 'portal-catalog-service',
    });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(900);

    const bearer = await jwtOf(user);
    const protectedAnswer = await call('GET', '/api/v1/protected', { headers: bearer.headers });
    expect(protectedAnswer.status).toBe(200);
    expect(protectedAnswer.body).toMatchObject({
      userId: user.userId,
      organizationId: user.orgId,
      role: 'owner',
    });
  });

  it('gives tokens for the session cookie only', async () => {
    const user = await signUp();
    const bearer = await jwtOf(user);
    const fromJwt = await call('POST', '/api/auth/token', { headers: bearer.headers });
    expect(fromJwt.status).toBe(403);
    const anonymous = await call('GET', '/api/auth/token');
    expect(anonymous.status).toBe(401);
  });

  it('refuses forged, unsigned and foreign tokens on every route, even public reads', async () => {
    const user = await signUp();
    const { token } = await jwtOf(user);
    const { payload } = decodeJwt(token);
    const [head, body, signature] = token.split('.');
    const forged: Record<string, string> = {
      'alg none': encodeJwt({ alg: 'none', typ: 'JWT' }, payload),
      'another key': encodeJwt({ alg: 'HS256', typ: 'JWT' }, payload, randomBytes(32).toString('base64url')),
      'changed claims': `${head}.${Buffer.from(JSON.stringify({ ...payload, role: 'owner', org: randomUUID() })).toString('base64url')}.${signature}`,
      'not a JWT': 'garbage',
      'unknown API key': `pcs_${randomBytes(32).toString('base64url')}`,
    };
    expect(body).toBeTruthy();
    for (const [what, credential] of Object.entries(forged)) {
      for (const path of ['/api/v1/protected', '/api/v1/browser/root', '/health', '/api/auth/get-session']) {
        const response = await call('GET', path, { headers: { authorization: `Bearer ${credential}` } });
        expect(response.status, `${what} on ${path}`).toBe(401);
        expect(response.body, `${what} on ${path}`).toMatchObject({ message: expect.any(String) as unknown });
      }
    }
    const basic = await call('GET', '/api/v1/protected', { headers: { authorization: 'Basic YTpi' } });
    expect(basic.status).toBe(401);
  });

  it('signs out: the cookie is cleared, and the session and its JWTs answer 401 everywhere', async () => {
    const user = await signUp();
    const bearer = await jwtOf(user);
    const out = await call('POST', '/api/auth/sign-out', { headers: user.headers });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.getSetCookie().find((value) => value.startsWith('session='))).toMatch(
      /^session=; .*Expires=Thu, 01 Jan 1970/,
    );
    for (const headers of [{ cookie: user.cookie }, bearer.headers]) {
      for (const path of ['/api/v1/protected', '/api/v1/browser/root', '/api/auth/get-session']) {
        expect((await call('GET', path, { headers })).status, path).toBe(401);
      }
    }
    // A stale cookie is cleared on its 401, so a browser recovers by itself.
    const stale = await call('GET', '/api/v1/browser/root', { headers: { cookie: user.cookie } });
    expect(stale.headers.getSetCookie().find((value) => value.startsWith('session='))).toMatch(/^session=;/);
    // Sign-in still works with the stale cookie sent along.
    const again = await call('POST', '/api/auth/sign-in/email', {
      ...signInBody(user.email, user.password),
      headers: { ...clientAddress(), cookie: user.cookie },
    });
    expect(again.status).toBe(200);
  });

  it('signs out with a JWT too, which ends the session behind it', async () => {
    const user = await signUp();
    const bearer = await jwtOf(user);
    expect((await call('POST', '/api/auth/sign-out', { headers: bearer.headers })).status).toBe(200);
    expect((await call('GET', '/api/v1/protected', { headers: user.headers })).status).toBe(401);
  });

  it('answers users/me and protected for signed-in callers only', async () => {
    expect((await call('GET', '/api/v1/users/me')).status).toBe(401);
    const anonymous = await call('GET', '/api/v1/protected');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ message: expect.any(String) as unknown });

    const user = await signUp({ name: 'Grace' });
    const me = await call('GET', '/api/v1/users/me', { headers: user.headers });
    expect(me.status).toBe(200);
    expectMatchesContract(currentUserSchema, me.body);
    expect(me.body).toMatchObject({
      user: { id: user.userId, email: user.email, name: 'Grace' },
      activeOrganization: { id: user.orgId, role: 'owner', personal: true },
      memberships: [{ id: user.orgId, role: 'owner' }],
    });
    const protectedAnswer = await call('GET', '/api/v1/protected', { headers: user.headers });
    expect(protectedAnswer.status).toBe(200);
    expect(protectedAnswer.body).toMatchObject({
      message: expect.any(String) as unknown,
      userId: user.userId,
    });
  });
});

describe('CSRF and CORS', () => {
  const appOrigin = 'http://portal-app.test';

  it('refuses a cookie write without the CSRF token, with a wrong one, or from a foreign origin', async () => {
    const user = await signUp();
    const create = (headers: Record<string, string>) =>
      call('POST', '/api/auth/organization/create', { headers, body: { name: 'CSRF test' } });
    const missing = await create({ cookie: user.cookie });
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ code: 'CSRF_TOKEN_INVALID' });
    expect((await create({ cookie: user.cookie, 'x-csrf-token': 'nope' })).status).toBe(403);
    const foreign = await create({ ...user.headers, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'CSRF_ORIGIN_REFUSED' });
    // The token (and an allowed origin) let it through; so does a bearer credential without either.
    await expectCommand(await create({ ...user.headers, origin: appOrigin }), 201, 'with token and origin');
    await expectCommand(await create((await jwtOf(user)).headers), 201, 'with a JWT');
    // Reads need no token.
    expect(
      (await call('GET', '/api/auth/organization/list', { headers: { cookie: user.cookie } })).status,
    ).toBe(200);
  });

  it('refuses a sign-in posted from a foreign origin', async () => {
    const user = await signUp();
    const response = await call('POST', '/api/auth/sign-in/email', {
      ...signInBody(user.email, user.password),
      headers: { ...clientAddress(), origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('answers preflights for CORS_ORIGINS only, with credentials allowed', async () => {
    const preflight = (origin: string) =>
      call('OPTIONS', '/api/auth/sign-in/email', {
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-csrf-token',
        },
      });
    const allowed = await preflight(appOrigin);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(appOrigin);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('X-CSRF-Token');
    const refused = await preflight('https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();

    const read = await call('GET', '/api/auth/get-session', { headers: { origin: appOrigin } });
    expect(read.headers.get('access-control-allow-origin')).toBe(appOrigin);
    expect(read.headers.get('vary')).toContain('Origin');
  });
});

describe('the /api/auth/* routes', () => {
  it('answers unknown paths 404 and wrong methods 405 with Allow', async () => {
    for (const path of [
      '/api/auth/nope',
      '/api/auth',
      '/api/auth/sign-in',
      '/api/auth/organization/delete',
    ]) {
      const response = await call('POST', path, { body: {} });
      expect(response.status, path).toBe(404);
      expect(response.body, path).toMatchObject({ message: expect.any(String) as unknown });
    }
    const wrong = await call('GET', '/api/auth/sign-in/email');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const put = await call('PUT', '/api/auth/get-session', { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
    expect((await call('DELETE', '/api/auth/token')).headers.get('allow')).toBe('GET, POST, HEAD');
  });

  it('answers TRACE 405 without echoing the request', async () => {
    // fetch refuses to send TRACE; node:http does not.
    const response = await rawRequest('TRACE', '/api/auth/get-session', {
      'x-secret-header': 'do-not-echo-me',
    });
    expect(response.status).toBe(405);
    expect(response.text).not.toContain('do-not-echo-me');
    expect(JSON.parse(response.text)).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    // With a credential that is not valid, the 401 comes first; it echoes nothing either.
    const withCookie = await rawRequest('TRACE', '/api/auth/sign-out', { cookie: 'session=also-secret' });
    expect(withCookie.status).toBe(401);
    expect(withCookie.text).not.toContain('also-secret');
  });

  it('answers OPTIONS on a known path with Allow', async () => {
    const response = await call('OPTIONS', '/api/auth/organization/list');
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, inject('baseUrl')), { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, text });
      });
    });
    request.on('error', reject);
    request.end();
  });
}
