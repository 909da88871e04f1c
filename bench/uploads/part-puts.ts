import { mapConcurrently } from './concurrently.js';

/** One PUT of bytes to a presigned URL (an UploadPart or a PutObject: the client cannot tell). */
export interface PresignedPut {
  readonly url: string;
  readonly bytes: Uint8Array;
}

export interface PutOutcome {
  /** Quoted, as S3 answers it; in the order of the PUTs given. */
  readonly etags: readonly string[];
  /** `performance.now()` at the first request and at the last answer. */
  readonly startedAt: number;
  readonly endedAt: number;
}

/** A plain HTTP PUT with node's fetch, as any client would send it; answers the ETag. */
export async function putBytes(url: string, bytes: Uint8Array): Promise<string> {
  const response = await fetch(url, { method: 'PUT', body: bytes });
  // Reading the answer to the end hands the connection back to the keep-alive pool.
  const text = await response.text();
  if (response.status !== 200) throw new Error(`PUT answered ${response.status}: ${text.slice(0, 300)}`);
  const etag = response.headers.get('etag');
  if (!etag) throw new Error('PUT answered no ETag');
  return etag;
}

/** The PUTs with `parallel` in flight: each connection sends its next part as soon as one is answered. */
export async function putInParallel(puts: readonly PresignedPut[], parallel: number): Promise<PutOutcome> {
  const startedAt = performance.now();
  const etags = await mapConcurrently(puts, parallel, (put) => putBytes(put.url, put.bytes));
  return { etags, startedAt, endedAt: performance.now() };
}

/** `count` pieces of `pieceBytes` (the last one shorter) of a `totalBytes` file, all cut from `source`. */
export function piecesOf(source: Uint8Array, totalBytes: number, pieceBytes: number): Uint8Array[] {
  const count = Math.ceil(totalBytes / pieceBytes);
  return Array.from({ length: count }, (_, index) =>
    source.subarray(0, Math.min(pieceBytes, totalBytes - index * pieceBytes)),
  );
}
