import type { EventMetadata } from './metadata.js';

/**
 * A point in the global order of all events. Totally ordered: compare `commit` first, then `prepare`.
 * PostgreSQL maps it to (transaction id, global position); EventStoreDB to its commit/prepare positions.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: Position = { commit: -1n, prepare: -1n };

export function comparePositions(a: Position, b: Position): -1 | 0 | 1 {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** Opaque text form for HTTP headers (`X-Event-Position`, `X-Min-Position`) and cursors. */
export function formatPosition(position: Position): string {
  return `${position.commit}.${position.prepare}`;
}

/** Parses `formatPosition` output; `null` for anything else. */
export function parsePosition(text: string): Position | null {
  const match = /^(-1|\d{1,20})\.(-1|\d{1,20})$/.exec(text);
  if (!match?.[1] || !match[2]) return null;
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}

/**
 * The kind of a stream: what comes before the first `-` of its id (`item`, `catalog`, `org`, `user`…, as
 * every stream of the service is named); `other` for an id without one. A handful of values, where the
 * id itself is one per object: what metrics and traces may name.
 */
export function streamCategoryOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash > 0 ? streamId.slice(0, dash) : 'other';
}

/** `no_stream`: the stream must not exist; `exists`: it must; `any`: no check; a bigint: its last revision. */
export type ExpectedRevision = 'no_stream' | 'exists' | 'any' | bigint;

export interface EventToAppend {
  /** Unique per event; a retried append with the same ids is idempotent. */
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent {
  readonly id: string;
  readonly streamId: string;
  /** 0 for the first event of a stream. */
  readonly revision: bigint;
  readonly position: Position;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
  /**
   * `data` and `metadata` as the JSON text the store returned, when the subscription asked for it
   * (`SubscribeAllOptions.keepStoredJson`), the adapter has it and the event was not upcast: a reader
   * that writes them out again as JSON can pass this through instead of printing what it parsed.
   */
  readonly storedJson?: StoredJson;
}

/** An event's data and metadata as the store holds them (JSON text that parses to `data`, `metadata`). */
export interface StoredJson {
  readonly data: string;
  readonly metadata: string;
}

export interface AppendResult {
  /** Revision of the last event written. */
  readonly nextRevision: bigint;
  /** Position of the last event written. */
  readonly position: Position;
}

/** One stream's part of `appendMany`. */
export interface StreamAppend {
  readonly streamId: string;
  readonly events: readonly EventToAppend[];
  readonly expectedRevision: ExpectedRevision;
}

/** What became of one `StreamAppend`: written (or found written by an earlier try), or refused. */
export type AppendOutcome =
  { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: Error };

export interface ReadStreamOptions {
  /** Only events at this revision and after; from the first event when left out. */
  readonly fromRevision?: bigint;
}

export interface SubscribeAllOptions {
  /** Deliver events strictly after this position; `START` for everything. */
  readonly after: Position;
  readonly signal?: AbortSignal;
  /** Upper bound on the size of one delivered batch. */
  readonly maxBatchSize?: number;
  /** Keep each event's stored JSON text beside what it parses to (`RecordedEvent.storedJson`), if the adapter can. */
  readonly keepStoredJson?: boolean;
}

/**
 * The event-store port. Adapters: PostgreSQL (default), EventStoreDB (production target), in-memory (unit tests).
 * Every adapter passes the same contract suite.
 */
export interface EventStore {
  /** Throws `ConcurrencyError` when the expected revision does not hold. */
  append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { readonly expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  /**
   * Appends to several streams at once: each entry checked against its own expected revision and
   * written all or nothing on its own, one outcome per entry in request order. A refused entry
   * (`ConcurrencyError`, a duplicate event id) leaves the others as they are. A stream may appear once
   * per call; invalid input throws, as for `append`. PostgreSQL writes the whole call in one round trip
   * and one transaction, with positions in request order; other adapters append concurrently.
   */
  appendMany(appends: readonly StreamAppend[]): Promise<readonly AppendOutcome[]>;
  /** Every event of the stream in revision order (from `fromRevision` on); empty for a missing stream. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<readonly RecordedEvent[]>;
  /** Revision of the stream's last event; `null` when the stream does not exist. One cheap lookup. */
  streamRevision(streamId: string): Promise<bigint | null>;
  /**
   * Ordered catch-up then live delivery of every event after `after`, in non-empty batches.
   * Ends when the signal aborts. Never skips or reorders events, even when transactions commit out of order.
   */
  subscribeAll(options: SubscribeAllOptions): AsyncIterable<readonly RecordedEvent[]>;
  /** Position of the newest event a subscriber can see now; `START` when there is none. */
  headPosition(): Promise<Position>;
  /**
   * A position at or after every event whose append had committed when this was called, once a
   * subscriber can see them all: a projection that reaches it includes every write acknowledged so far.
   * Stronger than `headPosition`, which may still be behind an append committed out of order. Waits (on
   * PostgreSQL) until every transaction that could hold such an event has ended.
   */
  syncPosition(signal?: AbortSignal): Promise<Position>;
  /**
   * Position of the newest event committed, whether or not a subscriber can see it yet (the PostgreSQL
   * adapter holds events back behind older transactions); `START` when there is none. No event that
   * exists has a position beyond it.
   */
  lastWrittenPosition(): Promise<Position>;
  close(): Promise<void>;
}
