import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { call, defaultCredentialHeaders, expectCommand } from './http.js';

export const MIB = 1024 ** 2;

export interface Descriptor {
  portalItemId: string;
  key: string;
  bucket: string;
  uploadId: string;
  partSize: number;
  partUrls: { partNumber: number; url: string }[];
}

export async function createItem(fields: Record<string, unknown>): Promise<Descriptor> {
  const response = await call<Descriptor>('POST', '/api/v1/portal/items/create', {
    body: { title: 'Scene', links: [], ...fields },
  });
  await expectCommand(response, 201, 'create item');
  return response.body;
}

/** Random bytes, so a wrong part order or a lost part cannot produce the same digest. */
export function fileOf(size: number): Buffer {
  return randomBytes(size);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The bytes of part `partNumber` (1-based) of `file` cut into `partSize` pieces. */
export function partOf(file: Buffer, partSize: number, partNumber: number): Buffer {
  return file.subarray((partNumber - 1) * partSize, partNumber * partSize);
}

/** A plain HTTP PUT of one part to its presigned URL, as any client would send it; answers the ETag. */
export async function putPart(url: string, bytes: Buffer): Promise<string> {
  const response = await fetch(url, { method: 'PUT', body: bytes });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`PUT part: ${response.status} ${text}`);
  const etag = response.headers.get('etag');
  if (!etag) throw new Error('PUT part answered no ETag');
  return etag;
}

export async function uploadParts(
  descriptor: Descriptor,
  file: Buffer,
  partNumbers = descriptor.partUrls.map((part) => part.partNumber),
): Promise<{ partNumber: number; etag: string }[]> {
  return Promise.all(
    partNumbers.map(async (partNumber) => {
      const url = descriptor.partUrls.find((part) => part.partNumber === partNumber)?.url;
      if (!url) throw new Error(`no URL for part ${partNumber}`);
      return { partNumber, etag: await putPart(url, partOf(file, descriptor.partSize, partNumber)) };
    }),
  );
}

export interface ItemRecord {
  id: string;
  status: string;
  statusMessage?: string | null;
  assets: { id: string; key: string; href: string; size?: number }[];
  [field: string]: unknown;
}

/** Polls the item until its status is one of `statuses` (the worker runs asynchronously). */
export async function waitForStatus(
  id: string,
  statuses: readonly string[],
  timeoutMs = 30_000,
): Promise<ItemRecord> {
  const deadline = Date.now() + timeoutMs;
  let last: ItemRecord | null = null;
  while (Date.now() < deadline) {
    const response = await call<ItemRecord>('GET', `/api/v1/portal/items/${id}`);
    expect(response.status).toBe(200);
    last = response.body;
    if (statuses.includes(last.status)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`item ${id} stayed ${last?.status ?? 'unknown'}, expected ${statuses.join(' or ')}`);
}

/** Follows an asset's href like a browser: a redirect to a presigned GET, then the bytes. */
export async function download(
  href: string,
  headers: Record<string, string> = defaultCredentialHeaders(),
): Promise<{ redirect: Response; file: Response; bytes: Buffer }> {
  const redirect = await fetch(href, { redirect: 'manual', headers });
  const location = redirect.headers.get('location');
  if (redirect.status !== 302 || !location)
    throw new Error(`download: ${redirect.status} ${await redirect.text()}`);
  const file = await fetch(location);
  if (file.status !== 200) throw new Error(`presigned GET: ${file.status} ${await file.text()}`);
  return { redirect, file, bytes: Buffer.from(await file.arrayBuffer()) };
}
