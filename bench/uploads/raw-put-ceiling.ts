import { cpuSince, markCpu } from '../support/cpu.js';
import type { DirectS3 } from './direct-s3.js';
import { piecesOf, putInParallel } from './part-puts.js';
import { throughputOf, type Throughput } from './throughput.js';
import type { UploadBenchOptions } from './upload-options.js';

export interface CeilingResult {
  readonly objects: number;
  readonly put: Throughput;
}

const URL_TTL_SECONDS = 3_600;
const WARM_UP_BYTES = 5 * 1024 ** 2;

/**
 * The ceiling goes first, so it would otherwise pay for what the service's run finds ready: the client's
 * connections to the gateway and the gateway's first requests. One small PUT per connection, not timed.
 */
async function warmUp(s3: DirectS3, source: Uint8Array, parallel: number, runTag: string): Promise<void> {
  const keys = Array.from(
    { length: parallel },
    (_, index) => `bench-uploads/${runTag}/warm-up-${index + 1}.bin`,
  );
  const urls = await Promise.all(keys.map((key) => s3.presignPut(key, URL_TTL_SECONDS)));
  await putInParallel(
    urls.map((url) => ({ url, bytes: source.subarray(0, WARM_UP_BYTES) })),
    parallel,
  );
  await s3.delete(keys);
}

/**
 * The ceiling: the same bytes, in the same pieces, with the same parallelism and the same HTTP client as
 * the upload through the service, but as PutObjects to presigned URLs the bench signs itself: no API, no
 * multipart upload, no worker. Every object is checked for its size, then deleted.
 */
export async function measureRawPutCeiling(
  s3: DirectS3,
  source: Uint8Array,
  options: UploadBenchOptions,
  runTag: string,
): Promise<CeilingResult> {
  await warmUp(s3, source, options.putParallel, runTag);
  const pieces = piecesOf(source, options.sizeBytes, options.partBytes);
  const keys = pieces.map((_, index) => `bench-uploads/${runTag}/ceiling-${index + 1}.bin`);
  // Signed before the clock starts, as the service signs its part URLs before the client PUTs.
  const urls = await Promise.all(keys.map((key) => s3.presignPut(key, URL_TTL_SECONDS)));
  try {
    const cpuMark = markCpu();
    const outcome = await putInParallel(
      pieces.map((bytes, index) => ({ url: urls[index] ?? '', bytes })),
      options.putParallel,
    );
    const put = throughputOf(options.sizeBytes, outcome.startedAt, outcome.endedAt, cpuSince(cpuMark));
    const sizes = await Promise.all(keys.map((key) => s3.sizeOf(key)));
    const stored = sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0);
    if (stored !== options.sizeBytes) {
      throw new Error(`the ceiling's objects hold ${stored} bytes, expected ${options.sizeBytes}`);
    }
    return { objects: keys.length, put };
  } finally {
    // Deleted at once: the test gateway keeps its objects in RAM.
    await s3.delete(keys);
  }
}
