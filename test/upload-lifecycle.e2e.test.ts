import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineKeyAt } from './support/auth.js';
import { settleCommandAt } from './support/command-answer.js';
import { callAt as callStack, type JsonResponse } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { fileOf, partOf, putPart, type Descriptor } from './support/uploads.js';

/** These tests need stacks of their own (a short upload lifetime, a dead object store), so they speak to them directly. */
const credentials = new WeakMap<Stack, Promise<Record<string, string>>>();

/** A call to the stack as a pipeline with an owner-role API key of a user signed up there. */
async function callAt<T = Record<string, unknown>>(
  stack: Stack,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonResponse<T>> {
  let headers = credentials.get(stack);
  if (!headers) {
    headers = pipelineKeyAt(stack.baseUrl);
    credentials.set(stack, headers);
  }
  return callStack<T>(stack.baseUrl, method, path, {
    headers: await headers,
    ...(body === undefined ? {} : { body }),
  });
}

async function collectionIn(stack: Stack): Promise<string> {
  const created = await callAt<{ portalItemId: string }>(stack, 'POST', '/api/v1/portal/collections/create', {
    title: 'Uploads',
    description: 'Uploads under test',
    links: [],
  });
  await settleCommandAt(stack.baseUrl, created, 201, 'create collection');
  return created.body.portalItemId;
}

describe('an upload left open past its time to live', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ UPLOAD_TTL_SECONDS: '2', UPLOAD_SWEEP_INTERVAL_MS: '300' });
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('is aborted in the object store and the item ends expired', async () => {
    const collectionId = await collectionIn(stack);
    const file = fileOf(5 * 1024 ** 2 + 1);
    const created = await callAt<Descriptor>(stack, 'POST', '/api/v1/portal/items/create', {
      title: 'Never finished',
      parentId: collectionId,
      links: [],
      size: file.length,
      partSize: 5 * 1024 ** 2,
    });
    await settleCommandAt(stack.baseUrl, created, 201, 'create item');
    const descriptor = created.body;
    await putPart(descriptor.partUrls[0]?.url ?? '', partOf(file, descriptor.partSize, 1));

    const deadline = Date.now() + 20_000;
    let status = '';
    while (Date.now() < deadline && status !== 'expired') {
      status = (
        await callAt<{ status: string }>(stack, 'GET', `/api/v1/portal/items/${descriptor.portalItemId}`)
      ).body.status;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe('expired');
    // The object store no longer holds the upload: a part sent now is refused.
    const late = await fetch(descriptor.partUrls[1]?.url ?? '', {
      method: 'PUT',
      body: partOf(file, 5 * 1024 ** 2, 2),
    });
    expect([403, 404]).toContain(late.status);
    const complete = await callAt<{ message: string }>(
      stack,
      'POST',
      `/api/v1/portal/items/${descriptor.portalItemId}/upload/complete`,
    );
    expect(complete.status).toBe(409);
    expect(complete.body.message).toMatch(/expired/);
  });
});

describe('object storage unreachable', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Port 9 (discard) has no listener on loopback: every S3 request fails to connect.
    stack = await startStack({ S3_ENDPOINT: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('answers 503 to an item create, records nothing and keeps what was stored', async () => {
    const collectionId = await collectionIn(stack);
    const refused = await callAt<{ message: string; code: string }>(
      stack,
      'POST',
      '/api/v1/portal/items/create',
      {
        title: 'No storage',
        parentId: collectionId,
        links: [],
        size: 10,
      },
    );
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect(refused.body.message).toMatch(/object storage is unavailable/);

    const items = await callAt<{ items: unknown[] }>(
      stack,
      'GET',
      `/api/v1/portal/items/?parentId=${collectionId}`,
    );
    expect(items.body.items).toEqual([]);
    expect((await callAt(stack, 'GET', `/api/v1/collections/${collectionId}`)).status).toBe(200);

    const ready = await callAt<{ status: string; checks: Record<string, { ok: boolean }> }>(
      stack,
      'GET',
      '/health/ready',
    );
    expect(ready.body.status).toBe('degraded');
    expect(ready.body.checks['s3']?.ok).toBe(false);
  });
});
