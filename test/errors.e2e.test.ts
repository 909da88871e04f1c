import { connect } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { call, defaultCredentialHeaders, expectCommand, link } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

const catalogPath = '/api/v1/portal/catalogs/create';
const collectionPath = '/api/v1/portal/collections/create';

function expectMessage(body: unknown, ...fragments: string[]): void {
  const message = (body as { message?: unknown } | null)?.message;
  expect(typeof message).toBe('string');
  for (const fragment of fragments) expect(message).toContain(fragment);
}

describe('errors: every bad input is a clear 4xx message', () => {
  it('answers 400 naming the field and its bound', async () => {
    const tooLong = await call('POST', collectionPath, {
      body: { title: 'x'.repeat(141), description: 'ok', links: [] },
    });
    expect(tooLong.status).toBe(400);
    expectMessage(tooLong.body, 'title', '140');

    const longDescription = await call('POST', collectionPath, {
      body: { title: 'ok', description: 'd'.repeat(1001), links: [] },
    });
    expect(longDescription.status).toBe(400);
    expectMessage(longDescription.body, 'description', '1000');
  });

  it('accepts every bound exactly and refuses one past it', async () => {
    const atBounds = await call('POST', collectionPath, {
      body: {
        title: 't'.repeat(140),
        description: 'd'.repeat(1000),
        links: [
          link({
            title: 'x'.repeat(140),
            href: 'h'.repeat(2048),
            rel: 'r'.repeat(140),
            type: 'y'.repeat(140),
            targetType: 'z'.repeat(140),
          }),
        ],
      },
    });
    await expectCommand(atBounds, 201, 'create at every bound');

    const hrefTooLong = await call('POST', catalogPath, {
      body: { title: 'ok', description: 'ok', links: [link({ href: 'h'.repeat(2049) })] },
    });
    expect(hrefTooLong.status).toBe(400);
    expectMessage(hrefTooLong.body, 'links[0].href', '2048');

    const emptyRel = await call('POST', catalogPath, {
      body: { title: 'ok', description: 'ok', links: [link({ rel: '' })] },
    });
    expect(emptyRel.status).toBe(400);
    expectMessage(emptyRel.body, 'links[0].rel');
  });

  it('refuses a linkJson that is not a JSON object', async () => {
    for (const linkJson of [[], 'text', 3, null]) {
      const response = await call('POST', catalogPath, {
        body: { title: 'ok', description: 'ok', links: [link({ linkJson })] },
      });
      expect(response.status).toBe(400);
      expectMessage(response.body, 'linkJson');
    }
  });

  it('answers 400 for a malformed percent-encoding in a path, never 500', async () => {
    for (const path of [
      '/api/v1/portal/items/%ZZ',
      '/api/v1/portal/catalogs/%ZZ',
      '/api/v1/collections/%E0%A4%A',
    ]) {
      const response = await call('GET', path);
      expect(response.status, path).toBe(400);
      expectMessage(response.body);
    }
  });

  it('answers 400 for a missing required field', async () => {
    const response = await call('POST', catalogPath, { body: { title: 'No links', description: 'x' } });
    expect(response.status).toBe(400);
    expectMessage(response.body, 'links');
  });

  it('answers 400 for malformed JSON, 415 for another media type, 413 for an oversized body', async () => {
    const malformed = await call('POST', catalogPath, {
      rawBody: '{"title": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expectMessage(malformed.body, 'JSON');

    const text = await call('POST', catalogPath, {
      rawBody: 'title=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expectMessage(text.body);

    const huge = await call('POST', catalogPath, {
      body: {
        title: 'ok',
        description: 'ok',
        links: [link({ linkJson: { blob: 'x'.repeat(2 * 1024 * 1024) } })],
      },
    });
    expect(huge.status).toBe(413);
    expectMessage(huge.body);
  });

  it('answers 405 with Allow for a wrong method and 404 for an unknown route', async () => {
    const wrongMethod = await call('PUT', '/api/v1/portal/catalogs/create', { body: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expectMessage(wrongMethod.body);

    const unknown = await call('GET', '/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expectMessage(unknown.body);
  });

  it('answers 400 for a bad If-Match, cursor or X-Min-Position', async () => {
    const badIfMatch = await call('PATCH', '/api/v1/portal/items/6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f', {
      body: { title: 'x' },
      headers: { 'if-match': 'yesterday' },
    });
    expect(badIfMatch.status).toBe(400);
    const badCursor = await call('GET', '/api/v1/portal/catalogs/?cursor=bm90LWEtY3Vyc29y');
    expect(badCursor.status).toBe(400);
    const badPosition = await call('GET', '/api/v1/portal/catalogs/', {
      headers: { 'x-min-position': 'soon' },
    });
    expect(badPosition.status).toBe(400);
    const badLimit = await call('GET', '/api/v1/portal/catalogs/?limit=1001');
    expect(badLimit.status).toBe(400);
    expectMessage(badLimit.body, 'limit');
  });
});

describe('errors: values PostgreSQL could not store, and paths not served yet', () => {
  it('refuses NUL characters and unpaired surrogates anywhere in a body with 400', async () => {
    const bodies = [
      { title: 'nul\u0000', description: 'ok', links: [] },
      { title: 'ok', description: 'lone \ud800 surrogate', links: [] },
      { title: 'ok', description: 'ok', links: [link({ linkJson: { nested: { deep: 'a\u0000b' } } })] },
      { title: 'ok', description: 'ok', links: [link({ linkJson: { 'key\u0000': 1 } })] },
    ];
    for (const body of bodies) {
      const response = await call('POST', catalogPath, { body });
      expect(response.status).toBe(400);
      expectMessage(response.body);
    }
  });

  it('refuses invalid UTF-8 in the raw body instead of storing U+FFFD', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"title":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('","description":"latin-1, not UTF-8","links":[]}'),
    ]);
    const response = await fetch(`${inject('baseUrl')}${catalogPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...defaultCredentialHeaders() },
      body: bytes,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'INVALID_UTF8' });
  });

  it('refuses titles of only spaces or invisible characters', async () => {
    for (const title of ['   ', '\u200b\u200d\ufeff', '\u3164']) {
      const created = await call('POST', catalogPath, { body: { title, description: 'ok', links: [] } });
      expect(created.status, JSON.stringify(title)).toBe(400);
      expectMessage(created.body, 'title', 'visible');
    }
  });

  it('refuses a cursor with a date PostgreSQL would reject', async () => {
    const cursor = Buffer.from(
      JSON.stringify(['2024-02-30T00:00:00.000Z', '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f']),
    ).toString('base64url');
    expect((await call('GET', `/api/v1/portal/catalogs/?cursor=${cursor}`)).status).toBe(400);
  });
});

/** Bytes exactly as given, for requests fetch refuses to send; resolves with the status and the body. */
async function sendRaw(request: string): Promise<{ status: number; body: string }> {
  const url = new URL(inject('baseUrl'));
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  socket.write(request);
  await new Promise((resolve) => socket.on('close', resolve));
  const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n', 2);
  return { status: Number(head.split(' ')[1]), body };
}

describe("errors: requests that Node's parser refuses still get the JSON error body", () => {
  it.each([
    ['a URL over 16 KiB', `GET /${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ['an unknown method', 'FROBNICATE /health HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a control character in a header', 'GET /health HTTP/1.1\r\nHost: x\r\nX-A: b\u0001c\r\n\r\n', 400],
  ])('%s', async (_name, request, status) => {
    const answer = await sendRaw(request);
    expect(answer.status).toBe(status);
    expectMessage(JSON.parse(answer.body));
  });
});
