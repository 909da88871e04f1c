import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { loadConfig } from '@portal/platform';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ObjectStoreRejectedError,
  ObjectStoreUnavailableError,
  S3ObjectStore,
  s3SettingsOf,
} from '../src/index.js';

// Runs against the test S3 endpoint (`source scripts/services/env.sh test`): Ceph's RADOS Gateway, which
// checks SigV4 signatures on presigned URLs like AWS does.
const settings = s3SettingsOf(loadConfig());
const store = new S3ObjectStore(settings);
const MIB = 1024 ** 2;

afterAll(() => {
  store.close();
});

function testKey(): string {
  return `test/s3-object-store/${randomUUID()}/data.bin`;
}

/** PUTs a part to its presigned URL the way a browser would: plain fetch, no SDK, no credentials. */
async function putPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string> {
  const [presigned] = await store.presignUploadParts(key, uploadId, [partNumber], 300);
  if (!presigned) throw new Error('no presigned URL');
  const response = await fetch(presigned.url, { method: 'PUT', body });
  expect(response.status).toBe(200);
  const etag = response.headers.get('etag');
  if (etag === null) throw new Error('the part PUT answered no ETag');
  return etag;
}

/** A small object stored with `contentType`, through a one-part multipart upload as the API makes them. */
async function storedObject(contentType: string, text: string): Promise<string> {
  const key = testKey();
  const uploadId = await store.createMultipartUpload(key, contentType);
  const etag = await putPart(key, uploadId, 1, Buffer.from(text));
  expect(await store.completeMultipartUpload(key, uploadId, [{ partNumber: 1, etag }])).toBe(true);
  return key;
}

describe('S3ObjectStore against the local Ceph gateway', () => {
  it('takes a multipart upload through presigned URLs, completes it and serves it back', async () => {
    const key = testKey();
    const uploadId = await store.createMultipartUpload(key, 'application/octet-stream');
    const parts = [randomBytes(5 * MIB), randomBytes(5 * MIB), randomBytes(1234)];
    const etags = [];
    for (const [index, body] of parts.entries()) etags.push(await putPart(key, uploadId, index + 1, body));

    const listed = await store.listParts(key, uploadId);
    expect(listed?.map(({ partNumber, size, etag }) => ({ partNumber, size, etag }))).toEqual([
      { partNumber: 1, size: 5 * MIB, etag: etags[0] },
      { partNumber: 2, size: 5 * MIB, etag: etags[1] },
      { partNumber: 3, size: 1234, etag: etags[2] },
    ]);

    const completed = await store.completeMultipartUpload(
      key,
      uploadId,
      etags.map((etag, index) => ({ partNumber: index + 1, etag: etag })),
    );
    expect(completed).toBe(true);
    const head = await store.headObject(key);
    expect(head).toMatchObject({ size: 10 * MIB + 1234, contentType: 'application/octet-stream' });
    expect(head?.etag).toMatch(/^"[0-9a-f]{32}-3"$/);

    // The upload is gone once completed; the object stays as it is.
    expect(await store.listParts(key, uploadId)).toBeNull();

    const url = await store.presignDownload(key, 60, {
      fileName: 'Report 2024 — final.bin',
      contentType: 'application/octet-stream',
    });
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''Report%202024");
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.concat(parts))).toBe(true);
  });

  it('serves an uploaded HTML file as an attachment of neutral type, and a PNG inline', async () => {
    const html = await storedObject('text/html', '<script>alert(document.domain)</script>');
    const asHtml = await fetch(
      await store.presignDownload(html, 60, { fileName: null, contentType: 'text/html' }),
    );
    expect(asHtml.status).toBe(200);
    expect(asHtml.headers.get('content-disposition')).toMatch(/^attachment; filename="data.bin"/);
    expect(asHtml.headers.get('content-type')).toBe('application/octet-stream');
    await asHtml.arrayBuffer();

    const svg = await storedObject(
      'image/svg+xml',
      '<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>',
    );
    const asSvg = await fetch(
      await store.presignDownload(svg, 60, { fileName: 'logo.svg', contentType: 'image/svg+xml' }),
    );
    expect(asSvg.headers.get('content-disposition')).toMatch(/^attachment; filename="logo.svg"/);
    expect(asSvg.headers.get('content-type')).toBe('application/octet-stream');
    await asSvg.arrayBuffer();

    const png = await storedObject('image/png', 'not really a png');
    const asPng = await fetch(
      await store.presignDownload(png, 60, { fileName: 'map.png', contentType: 'Image/PNG; x=1' }),
    );
    expect(asPng.headers.get('content-disposition')).toMatch(/^inline; filename="map.png"/);
    expect(asPng.headers.get('content-type')).toBe('image/png');
    await asPng.arrayBuffer();
  });

  it('aborts idempotently, after which the upload is gone', async () => {
    const key = testKey();
    const uploadId = await store.createMultipartUpload(key, null);
    await putPart(key, uploadId, 1, randomBytes(1000));
    expect(await store.listParts(key, uploadId)).toHaveLength(1);

    await store.abortMultipartUpload(key, uploadId);
    await store.abortMultipartUpload(key, uploadId);
    expect(await store.listParts(key, uploadId)).toBeNull();
    expect(await store.headObject(key)).toBeNull();
    // Ceph answers this with a 500; the store tells it apart from an outage.
    expect(await store.completeMultipartUpload(key, uploadId, [{ partNumber: 1, etag: '"x"' }])).toBe(false);
    expect(await store.completeMultipartUpload(key, 'no-such-upload', [{ partNumber: 1, etag: '"x"' }])).toBe(
      false,
    );
  });

  it('reports a part below 5 MiB that is not the last as a rejection, leaving the upload open', async () => {
    const key = testKey();
    const uploadId = await store.createMultipartUpload(key, null);
    const first = await putPart(key, uploadId, 1, randomBytes(1000));
    const second = await putPart(key, uploadId, 2, randomBytes(1000));
    const completing = store.completeMultipartUpload(key, uploadId, [
      { partNumber: 1, etag: first },
      { partNumber: 2, etag: second },
    ]);
    await expect(completing).rejects.toBeInstanceOf(ObjectStoreRejectedError);
    await expect(completing).rejects.toMatchObject({ code: 'EntityTooSmall' });
    expect(await store.listParts(key, uploadId)).toHaveLength(2);
    await store.abortMultipartUpload(key, uploadId);
  });

  it('reports a part whose ETag does not match as InvalidPart', async () => {
    const key = testKey();
    const uploadId = await store.createMultipartUpload(key, null);
    await putPart(key, uploadId, 1, randomBytes(1000));
    const completing = store.completeMultipartUpload(key, uploadId, [
      { partNumber: 1, etag: '"00000000000000000000000000000000"' },
    ]);
    await expect(completing).rejects.toMatchObject({ code: 'InvalidPart' });
    await store.abortMultipartUpload(key, uploadId);
  });

  it('answers null for an object that does not exist', async () => {
    expect(await store.headObject(testKey())).toBeNull();
  });

  it('passes its readiness check on the real bucket', async () => {
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('reports an endpoint nobody listens on as unavailable', async () => {
    const dead = new S3ObjectStore({
      ...settings,
      endpoint: 'http://127.0.0.1:9',
      publicEndpoint: 'http://127.0.0.1:9',
    });
    try {
      await expect(dead.listParts(testKey(), 'some-upload')).rejects.toBeInstanceOf(
        ObjectStoreUnavailableError,
      );
      await expect(dead.headObject(testKey())).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      await expect(dead.abortMultipartUpload(testKey(), 'some-upload')).rejects.toBeInstanceOf(
        ObjectStoreUnavailableError,
      );
      await expect(dead.check()).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
    } finally {
      dead.close();
    }
  });

  it('gives up on an endpoint that drops every connection after two attempts per call', async () => {
    // Each attempt is one connection here: what bounds how long a request waits for a dead store is
    // how often it tries, not a clock.
    let connections = 0;
    const dropping = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    const dead = new S3ObjectStore({ ...settings, endpoint, publicEndpoint: endpoint });
    try {
      await expect(dead.headObject(testKey())).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      expect(connections).toBe(2);
      await expect(dead.check()).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      expect(connections).toBe(4);
    } finally {
      dead.close();
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});
