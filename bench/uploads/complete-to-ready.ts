import { cpuSince, markCpu, type CpuShare } from '../support/cpu.js';
import { perSecond, summarize, type LatencySummary } from '../support/stats.js';
import { mapConcurrently } from './concurrently.js';
import { putBytes } from './part-puts.js';
import type { PortalClient, UploadDescriptor, UploadedPart } from './portal-client.js';
import type { UploadBenchOptions } from './upload-options.js';

export interface CompleteToReadyResult {
  readonly items: number;
  /** No 202, `failed`, or not `ready` in time; their times are left out of the summaries. */
  readonly failed: number;
  readonly firstFailure: string | null;
  /** `POST …/upload/complete` until its 202, ms. */
  readonly completeHttpMs: LatencySummary;
  /** `POST …/upload/complete` sent until a GET read `ready`, ms. */
  readonly completeToReadyMs: LatencySummary;
  /** Items that read `ready` per second, first complete sent to last `ready` read. */
  readonly completionsPerSecond: number;
  readonly seconds: number;
  /** The GETs of items that became `ready`: how many and how long each took (the poll's resolution). */
  readonly polls: number;
  readonly pollHttpMs: LatencySummary;
  readonly cpu: CpuShare;
}

interface Uploaded {
  readonly descriptor: UploadDescriptor;
  readonly parts: readonly UploadedPart[];
}

type Sample =
  | {
      readonly ok: true;
      readonly httpMs: number;
      readonly readyMs: number;
      readonly pollMs: readonly number[];
    }
  | { readonly ok: false; readonly reason: string };

const READY_TIMEOUT_MS = 60_000;

/** Creates the small items and PUTs their one part each: the setup, not timed. */
async function uploadSmallItems(
  portal: PortalClient,
  parentId: string,
  bytes: Uint8Array,
  options: UploadBenchOptions,
  track: (key: string) => void,
): Promise<Uploaded[]> {
  const indexes = Array.from({ length: options.items }, (_, index) => index);
  return mapConcurrently(indexes, options.completions, async (index) => {
    const descriptor = await portal.createItem({
      title: `Uploads bench: small item ${index}`,
      parentId,
      size: bytes.length,
      fileName: `small-${index}.bin`,
    });
    track(descriptor.key);
    const [part] = descriptor.partUrls;
    if (!part || descriptor.partUrls.length !== 1) {
      throw new Error(`a ${bytes.length}-byte item got ${descriptor.partUrls.length} part URLs`);
    }
    return { descriptor, parts: [{ partNumber: part.partNumber, etag: await putBytes(part.url, bytes) }] };
  });
}

async function completeAndWait(portal: PortalClient, item: Uploaded, pauseMs: number): Promise<Sample> {
  const sentAt = performance.now();
  try {
    await portal.complete(item.descriptor.portalItemId, item.parts);
    const httpMs = performance.now() - sentAt;
    const ready = await portal.waitForReady(item.descriptor.portalItemId, pauseMs, READY_TIMEOUT_MS);
    return { ok: true, httpMs, readyMs: ready.readyAt - sentAt, pollMs: ready.pollMs };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Many small items, each timed from its `complete` request to the first GET that reads it `ready`, with
 * `completions` items between the two at once (each runner completes its next item once the previous one
 * read ready). What it measures is the service's completion path: the API's append and enqueue, the
 * worker's job (ListParts, CompleteMultipartUpload, HeadObject, append), then the projector.
 */
export async function measureCompleteToReady(
  portal: PortalClient,
  parentId: string,
  bytes: Uint8Array,
  options: UploadBenchOptions,
  track: (key: string) => void,
  progress: (line: string) => void,
): Promise<CompleteToReadyResult> {
  progress(`small items: creating ${options.items} items of ${bytes.length} bytes and PUTting their parts`);
  const uploaded = await uploadSmallItems(portal, parentId, bytes, options, track);
  progress(`small items: completing with ${options.completions} at once, polling every ${options.pollMs} ms`);
  const cpuMark = markCpu();
  const startedAt = performance.now();
  const samples = await mapConcurrently(uploaded, options.completions, (item) =>
    completeAndWait(portal, item, options.pollMs),
  );
  const endedAt = performance.now();
  const cpu = cpuSince(cpuMark);
  const succeeded = samples.filter((sample) => sample.ok);
  const failures = samples.filter((sample) => !sample.ok);
  const pollMs = succeeded.flatMap((sample) => sample.pollMs);
  return {
    items: samples.length,
    failed: failures.length,
    firstFailure: failures[0]?.reason ?? null,
    completeHttpMs: summarize(succeeded.map((sample) => sample.httpMs)),
    completeToReadyMs: summarize(succeeded.map((sample) => sample.readyMs)),
    completionsPerSecond: perSecond(succeeded.length, endedAt - startedAt),
    seconds: (endedAt - startedAt) / 1000,
    polls: pollMs.length,
    pollHttpMs: summarize(pollMs),
    cpu,
  };
}
