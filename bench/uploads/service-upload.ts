import { cpuSince, markCpu } from '../support/cpu.js';
import type { DirectS3 } from './direct-s3.js';
import { piecesOf, putInParallel } from './part-puts.js';
import type { PortalClient } from './portal-client.js';
import { throughputOf, type Throughput } from './throughput.js';
import type { UploadBenchOptions } from './upload-options.js';

export interface ServiceUploadResult {
  readonly parts: number;
  /** `POST …/items/create`: the API starts the multipart upload, appends, waits for projection, signs. */
  readonly createMs: number;
  /** The part PUTs straight to S3 through the presigned URLs. */
  readonly put: Throughput;
  /** `POST …/upload/complete` until its 202. */
  readonly completeHttpMs: number;
  /** `POST …/upload/complete` sent until a GET of the item read `ready`. */
  readonly completeToReadyMs: number;
  /** Create sent until `ready` read: what a client waits for the whole file. */
  readonly endToEnd: Throughput;
  readonly readyPolls: number;
  /** The asset's size as the item reports it, and the stored object's size. */
  readonly assetSize: number;
  readonly storedSize: number;
}

const READY_TIMEOUT_MS = 300_000;

/**
 * One large file through the service as a client uploads it: create the item with its size and part size,
 * PUT every part to its presigned URL (`putParallel` at once), complete with the ETags, poll until
 * `ready`. Every part is cut from the same random buffer (throughput does not depend on the bytes being
 * different, and 1 GiB of distinct parts would have to be held in memory), so the check at the end is the
 * size of the asset, not its digest.
 */
export async function measureServiceUpload(
  portal: PortalClient,
  s3: DirectS3,
  parentId: string,
  source: Uint8Array,
  options: UploadBenchOptions,
): Promise<ServiceUploadResult> {
  const pieces = piecesOf(source, options.sizeBytes, options.partBytes);
  const cpuMark = markCpu();
  const createdAt = performance.now();
  const descriptor = await portal.createItem({
    title: 'Uploads bench: large file',
    parentId,
    size: options.sizeBytes,
    partSize: options.partBytes,
    fileName: 'large.bin',
    contentType: 'application/octet-stream',
  });
  s3.track(descriptor.key);
  const createMs = performance.now() - createdAt;
  if (descriptor.partSize !== options.partBytes || descriptor.partUrls.length !== pieces.length) {
    throw new Error(
      `asked for ${pieces.length} parts of ${options.partBytes} bytes, got ${descriptor.partUrls.length} of ${descriptor.partSize}`,
    );
  }

  const putMark = markCpu();
  const outcome = await putInParallel(
    pieces.map((bytes, index) => ({ url: descriptor.partUrls[index]?.url ?? '', bytes })),
    options.putParallel,
  );
  const put = throughputOf(options.sizeBytes, outcome.startedAt, outcome.endedAt, cpuSince(putMark));

  const completedAt = performance.now();
  await portal.complete(
    descriptor.portalItemId,
    descriptor.partUrls.map(({ partNumber }, index) => ({ partNumber, etag: outcome.etags[index] ?? '' })),
  );
  const completeHttpMs = performance.now() - completedAt;
  const ready = await portal.waitForReady(descriptor.portalItemId, options.pollMs, READY_TIMEOUT_MS);
  const endToEnd = throughputOf(options.sizeBytes, createdAt, ready.readyAt, cpuSince(cpuMark));

  const assetSize = ready.item.assets[0]?.size ?? 0;
  const storedSize = (await s3.sizeOf(descriptor.key)) ?? 0;
  if (assetSize !== options.sizeBytes || storedSize !== options.sizeBytes) {
    throw new Error(
      `the asset reads ${assetSize} bytes and the object holds ${storedSize}; expected ${options.sizeBytes}`,
    );
  }
  return {
    parts: pieces.length,
    createMs,
    put,
    completeHttpMs,
    completeToReadyMs: ready.readyAt - completedAt,
    endToEnd,
    readyPolls: ready.polls,
    assetSize,
    storedSize,
  };
}
