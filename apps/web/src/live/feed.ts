import { changeEventSchema, type ChangeEvent } from '@portal/contracts';
import { createStore } from '../lib/store.js';
import { feedHeaders, reconnectDelay } from './reconnect.js';
import { SseParser } from './sse-parser.js';

export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface FeedState {
  readonly status: FeedStatus;
  /** The last event id received: where a reconnection resumes. */
  readonly lastEventId: string | null;
}

export const feedStore = createStore<FeedState>({ status: 'stopped', lastEventId: null });

type ChangeListener = (changes: readonly ChangeEvent[]) => void;
type ResetListener = () => void;
const changeListeners = new Set<ChangeListener>();
const resetListeners = new Set<ResetListener>();

/** Changes arrive in bursts (a batch, a bulk load): listeners get them together, once per frame. */
const BATCH_MS = 150;
let pending: ChangeEvent[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;

function deliver(change: ChangeEvent): void {
  pending.push(change);
  flushTimer ??= setTimeout(() => {
    const batch = pending;
    pending = [];
    flushTimer = null;
    for (const listener of [...changeListeners]) listener(batch);
  }, BATCH_MS);
}

export function onChanges(listener: ChangeListener): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** The feed could not replay what was missed: whatever is shown must be read again. */
export function onReset(listener: ResetListener): () => void {
  resetListeners.add(listener);
  return () => resetListeners.delete(listener);
}

/** A change event's data, or null for one the contract does not describe (never thrown at the stream). */
export function changeOf(data: string): ChangeEvent | null {
  try {
    const parsed = changeEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

let controller: AbortController | null = null;

async function readStream(signal: AbortSignal): Promise<{ retryMs: number | null; opened: boolean }> {
  const parser = new SseParser();
  const response = await fetch('/api/v1/events', {
    headers: feedHeaders(feedStore.get().lastEventId),
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok || !response.body) return { retryMs: null, opened: false };
  feedStore.set({ ...feedStore.get(), status: 'live' });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const event of parser.push(value)) {
      if (event.id !== null) feedStore.set({ ...feedStore.get(), lastEventId: event.id });
      if (event.event === 'reset') {
        for (const listener of [...resetListeners]) listener();
        continue;
      }
      const change = changeOf(event.data);
      if (change) deliver(change);
    }
  }
  return { retryMs: parser.retryMs, opened: true };
}

/**
 * Follows `GET /api/v1/events` for as long as the page lives: on every end (the server closes streams
 * after a while so rights are checked anew) or failure it reconnects with `Last-Event-ID`, so no
 * change is missed across a reconnection. Restarted when the session changes (other rights).
 */
export function startFeed(): void {
  controller?.abort();
  const own = new AbortController();
  controller = own;
  feedStore.set({ ...feedStore.get(), status: 'connecting' });
  void (async () => {
    let failures = 0;
    let retryMs: number | null = null;
    // A function, not the property: it changes while the loop awaits.
    const stopped = () => own.signal.aborted;
    while (!stopped()) {
      try {
        const result = await readStream(own.signal);
        retryMs = result.retryMs ?? retryMs;
        failures = result.opened ? 0 : failures + 1;
      } catch {
        failures += 1;
      }
      if (stopped()) break;
      feedStore.set({ ...feedStore.get(), status: 'reconnecting' });
      await new Promise((resolve) => setTimeout(resolve, reconnectDelay(failures, retryMs)));
    }
  })();
}

export function stopFeed(): void {
  controller?.abort();
  controller = null;
  feedStore.set({ ...feedStore.get(), status: 'stopped' });
}
