import type { UploadDescriptor } from '@portal/contracts';
import { abortUpload, completeUpload, uploadStatus, uploadUrls } from '../api/endpoints.js';
import { messageOf } from '../api/client.js';
import { createStore } from '../lib/store.js';
import { onChanges } from '../live/feed.js';
import { partsToSend, planParts, ProgressMeter, type PartRange, type ProgressSnapshot } from './plan.js';
import { putPart } from './put-part.js';
import { forgetResumeRecord, saveResumeRecord } from './resume-records.js';

/** Parts on the wire at once: enough to fill a link, few enough for the browser's per-host limit. */
const PARALLEL_PARTS = 4;
const ATTEMPTS_PER_PART = 3;
const URLS_PER_REQUEST = 1000;
/** Between two reads of the upload's status; a change on the live feed triggers one at once. */
const STATUS_POLL_MS = 3000;

export type UploadPhase =
  'uploading' | 'completing' | 'processing' | 'ready' | 'failed' | 'cancelled' | 'error';

export interface UploadState {
  readonly itemId: string;
  readonly fileName: string;
  readonly phase: UploadPhase;
  readonly progress: ProgressSnapshot;
  readonly message: string | null;
}

/** Every upload this page runs, by item id; the item page shows its entry and survives navigation. */
export const uploadsStore = createStore<ReadonlyMap<string, UploadState>>(new Map());
const controllers = new Map<string, AbortController>();

function update(itemId: string, change: Partial<UploadState>): void {
  const current = uploadsStore.get().get(itemId);
  if (!current) return;
  const next = new Map(uploadsStore.get());
  next.set(itemId, { ...current, ...change });
  uploadsStore.set(next);
}

/** Fresh presigned URLs for the parts that have none (more than the first 1,000, or a resume). */
async function urlsFor(
  itemId: string,
  parts: readonly PartRange[],
  known: Map<number, string>,
): Promise<Map<number, string>> {
  const missing = parts.map((part) => part.partNumber).filter((partNumber) => !known.has(partNumber));
  for (let start = 0; start < missing.length; start += URLS_PER_REQUEST) {
    const answer = await uploadUrls(itemId, missing.slice(start, start + URLS_PER_REQUEST));
    for (const part of answer.partUrls) known.set(part.partNumber, part.url);
  }
  return known;
}

/** Resolves after `ms`, or as soon as the live feed reports a change of `itemId`. */
function nextChangeOr(itemId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = onChanges((changes) => {
      if (changes.some((change) => change.objectId === itemId)) done();
    });
  });
}

/** Waits for the worker's verdict: the item goes processing → ready (or failed). */
async function followCompletion(itemId: string, signal: AbortSignal): Promise<void> {
  for (;;) {
    if (signal.aborted) return;
    const status = await uploadStatus(itemId);
    if (status.status === 'ready') {
      update(itemId, { phase: 'ready', message: null });
      return;
    }
    if (status.status === 'failed' || status.status === 'expired' || status.status === 'aborted') {
      update(itemId, { phase: 'failed', message: status.statusMessage ?? `the upload is ${status.status}` });
      return;
    }
    await nextChangeOr(itemId, STATUS_POLL_MS);
  }
}

async function run(
  itemId: string,
  file: File,
  partSize: number,
  knownUrls: Map<number, string>,
  done: readonly { partNumber: number; etag: string; size: number }[],
): Promise<void> {
  const controller = new AbortController();
  controllers.set(itemId, controller);
  const { signal } = controller;
  const plan = planParts(file.size, partSize);
  const toSend = partsToSend(plan, done);
  const alreadyHeld = plan
    .filter((part) => !toSend.includes(part))
    .reduce((sum, part) => sum + part.end - part.start, 0);
  const meter = new ProgressMeter(file.size);
  const loaded = new Map<number, number>();
  const report = () => {
    let bytes = alreadyHeld;
    for (const value of loaded.values()) bytes += value;
    update(itemId, { progress: meter.record(bytes, performance.now()) });
  };
  report();
  const etags = new Map(
    done
      .filter((part) => !toSend.some((sent) => sent.partNumber === part.partNumber))
      .map((part) => [part.partNumber, part.etag]),
  );

  try {
    const urls = await urlsFor(itemId, toSend, knownUrls);
    const queue = [...toSend];
    const worker = async () => {
      for (let part = queue.shift(); part !== undefined; part = queue.shift()) {
        const body = file.slice(part.start, part.end);
        for (let attempt = 1; ; attempt += 1) {
          try {
            const url = urls.get(part.partNumber);
            if (!url) throw new Error(`no upload address for part ${part.partNumber}`);
            const partNumber = part.partNumber;
            const etag = await putPart(
              url,
              body,
              (bytes) => {
                loaded.set(partNumber, bytes);
                report();
              },
              signal,
            );
            etags.set(partNumber, etag);
            break;
          } catch (error) {
            if (signal.aborted || attempt >= ATTEMPTS_PER_PART) throw error;
            loaded.set(part.partNumber, 0);
            // A URL may have expired meanwhile: the next attempt gets a fresh one.
            urls.delete(part.partNumber);
            await urlsFor(itemId, [part], urls);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, toSend.length) }, worker));
    update(itemId, { phase: 'completing' });
    const parts = plan.map((part) => ({
      partNumber: part.partNumber,
      etag: etags.get(part.partNumber) ?? '',
    }));
    await completeUpload(itemId, parts);
    forgetResumeRecord(itemId);
    update(itemId, { phase: 'processing' });
    await followCompletion(itemId, signal);
  } catch (error) {
    if (signal.aborted) return;
    update(itemId, { phase: 'error', message: messageOf(error) });
  } finally {
    controllers.delete(itemId);
  }
}

function begin(itemId: string, file: File): void {
  const next = new Map(uploadsStore.get());
  next.set(itemId, {
    itemId,
    fileName: file.name,
    phase: 'uploading',
    progress: { bytes: 0, total: file.size, rate: null, etaSeconds: null },
    message: null,
  });
  uploadsStore.set(next);
}

/** Uploads `file` to the item just created, in parallel parts, then completes it. */
export function startUpload(descriptor: UploadDescriptor, file: File): void {
  const itemId = descriptor.portalItemId;
  saveResumeRecord({
    itemId,
    fileName: file.name,
    size: file.size,
    lastModified: file.lastModified,
    partSize: descriptor.partSize,
  });
  begin(itemId, file);
  const urls = new Map(descriptor.partUrls.map((part) => [part.partNumber, part.url]));
  void run(itemId, file, descriptor.partSize, urls, []);
}

/**
 * Continues an upload after a reload or a failure: asks the API which parts the store holds, and
 * sends only the others (with fresh URLs).
 */
export async function resumeUpload(itemId: string, file: File): Promise<void> {
  const status = await uploadStatus(itemId);
  if (status.size !== null && status.size !== file.size) {
    throw new Error(`this item expects a file of ${status.size} bytes; ${file.name} has ${file.size}`);
  }
  begin(itemId, file);
  void run(itemId, file, status.partSize, new Map(), status.partsReceived);
}

/** Stops sending and discards the parts sent (the item becomes `aborted`). */
export async function cancelUpload(itemId: string): Promise<void> {
  controllers.get(itemId)?.abort();
  forgetResumeRecord(itemId);
  try {
    await abortUpload(itemId);
    update(itemId, { phase: 'cancelled', message: null });
  } catch (error) {
    update(itemId, { phase: 'error', message: messageOf(error) });
  }
}
