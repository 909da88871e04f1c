import type { Config, Logger, Pool } from '@portal/platform';
import type { ProjectionWaiter } from '../projection/projection-waiter.js';
import {
  UNOBSERVED_FEED,
  type ChangeFeedObserver,
  type FeedDisconnectReason,
} from './change-feed-metrics.js';
import type { ChangeRow } from '@portal/read-model-audit';
import { changeFrame, resetFrame } from './change-frames.js';
import {
  findResumePoint,
  readChangesAfter,
  readHead,
  readMissedChanges,
  START_CURSOR,
  type FeedCursor,
  type ResumePoint,
} from './change-queries.js';
import { liveBatch, type ChangeFrame, type LiveBatch, type SseConnection } from './sse-connection.js';
import { commentFrame } from './sse-frames.js';
import { Slots } from './slots.js';

/** Object events read per query, by the hub and by a replay page. */
const BATCH_SIZE = 500;
/** Replays at once: a reconnect storm must not take the request pool from ordinary reads. */
const REPLAY_CONCURRENCY = 2;
/** After a failed read the hub tries again this soon, even without a new projection batch. */
const RETRY_DELAY_MS = 1_000;

export interface ChangeFeedSettings {
  readonly heartbeatMs: number;
  readonly maxBufferBytes: number;
  readonly replayMaxEvents: number;
  readonly maxConnectionMs: number;
  /** Least time between two reads of new events: the changes of that time go out in one write per client. */
  readonly batchIntervalMs: number;
}

export function changeFeedSettingsOf(config: Config): ChangeFeedSettings {
  return {
    heartbeatMs: config.SSE_HEARTBEAT_MS,
    maxBufferBytes: config.SSE_MAX_BUFFER_BYTES,
    replayMaxEvents: config.SSE_REPLAY_MAX_EVENTS,
    maxConnectionMs: config.SSE_MAX_CONNECTION_MS,
    batchIntervalMs: config.SSE_BATCH_INTERVAL_MS,
  };
}

/** A connected client: its stream and the principals its credential held when it connected. */
export interface FeedClient {
  readonly connection: SseConnection;
  readonly principals: readonly string[];
}

/**
 * The clients holding one same set of principals (the same user, or the same API key, on many screens):
 * they may read exactly the same objects, so each hub read is filtered and encoded once for all of them.
 */
interface Audience {
  /** Sorted and distinct; `key` is made of them. */
  readonly principals: readonly string[];
  readonly key: string;
  readonly clients: Set<FeedClient>;
}

/** One key per set, whatever the order or repetition; JSON keeps any two different sets apart. */
function audienceOf(principals: readonly string[]): Omit<Audience, 'clients'> {
  const distinct = [...new Set(principals)].sort();
  return { principals: distinct, key: JSON.stringify(distinct) };
}

/** Still `open` when detached: the client closed it; `ended`: the server did. */
function disconnectReason(outcome: 'open' | 'ended' | 'dropped'): FeedDisconnectReason {
  if (outcome === 'open') return 'client';
  return outcome === 'ended' ? 'server' : 'dropped';
}

/** Where a client starts: now, after a known event, or after one the feed cannot place. */
export type FeedStart =
  | { readonly kind: 'now' }
  | { readonly kind: 'resume'; readonly point: ResumePoint }
  | { readonly kind: 'unknown' };

/**
 * One per API process. Each projection batch (the `portal_projection` notification the API already
 * listens to) wakes it; it reads the new object events once, for all clients, and writes each event's
 * frame to the clients whose principals overlap the object's `read_principals`.
 */
export class ChangeFeedHub {
  private cursor: FeedCursor = START_CURSOR;
  private readonly clients = new Map<FeedClient, Audience>();
  private readonly audiences = new Map<string, Audience>();
  /** Audiences by principal: an event reaches its readers without a look at every client. */
  private readonly byPrincipal = new Map<string, Set<Audience>>();
  private readonly lifetimes = new Map<FeedClient, NodeJS.Timeout>();
  private readonly replays = new Slots(REPLAY_CONCURRENCY);
  private reading = false;
  private readAgain = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private pacingTimer: NodeJS.Timeout | null = null;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  /** Resets waiting for a read that begins after they asked, so they name a place past what they saw. */
  private catchUps: (() => void)[] = [];
  private unsubscribe: (() => void) | null = null;
  private closed = false;

  /**
   * `pool` serves replays (the request pool, like any read); `livePool` (one connection of its own) the
   * hub's reads, so live delivery never queues behind a burst of requests for a pooled connection.
   */
  constructor(
    private readonly pool: Pool,
    private readonly livePool: Pool,
    private readonly projection: Pick<ProjectionWaiter, 'onAdvance'>,
    readonly settings: ChangeFeedSettings,
    private readonly logger: Logger,
    private readonly observer: ChangeFeedObserver = UNOBSERVED_FEED,
  ) {}

  async start(): Promise<void> {
    try {
      this.cursor = await readHead(this.livePool);
    } catch (error) {
      // Before the projector's first start the table does not exist: every event will be new.
      this.logger.debug(
        { err: error },
        'audit events not readable yet; the change feed starts at the beginning',
      );
    }
    this.unsubscribe = this.projection.onAdvance(() => {
      this.wake();
    });
    this.heartbeat = setInterval(() => {
      this.beat();
    }, this.settings.heartbeatMs);
    this.heartbeat.unref();
  }

  get accepting(): boolean {
    return !this.closed;
  }

  get connectedClients(): number {
    return this.clients.size;
  }

  /** Distinct principal sets among the connected clients (diagnostics and tests). */
  get audienceCount(): number {
    return this.audiences.size;
  }

  /** Where `Last-Event-ID` leads: a resume point within reach, or a reset. */
  async startOf(lastEventId: string | null): Promise<FeedStart> {
    if (lastEventId === null) return { kind: 'now' };
    const point = await findResumePoint(this.pool, lastEventId, this.settings.replayMaxEvents);
    return point === null ? { kind: 'unknown' } : { kind: 'resume', point };
  }

  /**
   * Connects a client whose stream is open. A resume replays what it missed, then goes live; a start
   * the feed cannot replay gets `event: reset` and goes live. Resolves once the client is live.
   */
  async follow(client: FeedClient, start: FeedStart): Promise<void> {
    if (this.closed) {
      client.connection.end();
      return;
    }
    this.limitLifetime(client);
    if (start.kind === 'now') {
      this.register(client);
      return;
    }
    if (start.kind === 'unknown' || start.point.behind > this.settings.replayMaxEvents) {
      // The client's start was judged on what the database held; the hub's own read may trail it (paced,
      // or not yet woken). Catch up first, or changes between the two would follow a reset that claims
      // to be past them.
      await this.caughtUp();
      // Read through the getter: closing may have happened while this waited.
      if (!this.accepting) {
        client.connection.end();
        return;
      }
      // Synchronously with the registration: the reset names the very place the live events follow.
      const reason = start.kind === 'unknown' ? 'unknown-last-event-id' : 'too-far-behind';
      client.connection.send(resetFrame({ reason, position: this.cursor.position }));
      this.register(client);
      return;
    }
    const { point } = start;
    await this.replays.run(() => this.replay(client, point.seq));
  }

  /** The client is gone (its socket closed); forget it. */
  detach(client: FeedClient): void {
    // Counted once: the lifetime timer and the socket's close may both detach the same client.
    if (this.lifetimes.has(client)) this.observer.disconnected(disconnectReason(client.connection.outcome));
    client.connection.markClosed();
    const lifetime = this.lifetimes.get(client);
    if (lifetime) clearTimeout(lifetime);
    this.lifetimes.delete(client);
    const audience = this.clients.get(client);
    if (!audience) return;
    this.clients.delete(client);
    audience.clients.delete(client);
    if (audience.clients.size > 0) return;
    this.audiences.delete(audience.key);
    for (const principal of audience.principals) {
      const audiences = this.byPrincipal.get(principal);
      audiences?.delete(audience);
      if (audiences?.size === 0) this.byPrincipal.delete(principal);
    }
  }

  /** Ends every stream (clients reconnect elsewhere with `Last-Event-ID`) and stops reading. */
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.catchUps.splice(0)) resolve();
    this.unsubscribe?.();
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pacingTimer) clearTimeout(this.pacingTimer);
    for (const client of [...this.clients.keys()]) {
      client.connection.end();
      this.detach(client);
    }
    await this.livePool.end().catch(() => undefined);
  }

  private register(client: FeedClient): void {
    if (!client.connection.isOpen || this.closed) return;
    const { principals, key } = audienceOf(client.principals);
    let audience = this.audiences.get(key);
    if (!audience) {
      audience = { principals, key, clients: new Set() };
      this.audiences.set(key, audience);
      for (const principal of audience.principals) {
        let audiences = this.byPrincipal.get(principal);
        if (!audiences) this.byPrincipal.set(principal, (audiences = new Set()));
        audiences.add(audience);
      }
    }
    audience.clients.add(client);
    this.clients.set(client, audience);
  }

  /**
   * Registered first with live changes held, then the replay pages: a change committed before a page
   * was read is in the page, one committed later reaches the client live. Where the two overlap (the hub
   * reads a change a page already had) the connection sends it once.
   */
  private async replay(client: FeedClient, afterSeq: bigint): Promise<void> {
    const { connection, principals } = client;
    connection.hold();
    this.register(client);
    let through = afterSeq;
    try {
      for (;;) {
        if (!connection.isOpen) return;
        const rows = await readMissedChanges(this.pool, through, principals, BATCH_SIZE);
        for (const row of rows) {
          through = BigInt(row.seq);
          if (!connection.sendChange(changeFrame(row))) return;
        }
        if (rows.length < BATCH_SIZE) break;
      }
      connection.release();
    } catch (error) {
      // The stream is open already: end it; the client resumes from the last id it got.
      this.logger.warn({ err: error }, 'change feed replay failed; ending the stream');
      connection.end();
    }
  }

  /** Resolves once a hub read that began after this call has reached the end of what was committed. */
  private caughtUp(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.catchUps.push(resolve));
    this.wake();
    return done;
  }

  private limitLifetime(client: FeedClient): void {
    // Principals are read once, at connect; a bounded life makes the client reconnect with a fresh
    // credential, so a removed member or an expired token stops receiving within this time.
    const timer = setTimeout(() => {
      client.connection.end();
      // Also when its 'close' never reached the hub: nothing outlives the connection's lifetime.
      this.detach(client);
    }, this.settings.maxConnectionMs);
    timer.unref();
    this.lifetimes.set(client, timer);
  }

  private beat(): void {
    const frame = commentFrame('heartbeat');
    for (const client of this.clients.keys()) client.connection.send(frame);
  }

  /**
   * Reads at most once per `batchIntervalMs`. Writes, not queries, are the cost of fan-out (one per client
   * per read), so under a stream of small projector batches the changes of one interval go out together.
   */
  private wake(): void {
    if (this.closed) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    if (this.pacingTimer) return;
    const wait = this.lastReadAt + this.settings.batchIntervalMs - performance.now();
    if (wait > 0) {
      this.pacingTimer = setTimeout(() => {
        this.pacingTimer = null;
        this.wake();
      }, wait);
      return;
    }
    this.reading = true;
    void this.readNewChanges();
  }

  /** Reads until caught up, one bounded batch at a time; a batch that came full may have more behind it. */
  private async readNewChanges(): Promise<void> {
    let wakeAgain = false;
    // Taken before the first query: this read starts after each of them asked.
    const catchUps = this.catchUps.splice(0);
    try {
      let full = true;
      while (full && !this.closed) {
        this.readAgain = false;
        this.lastReadAt = performance.now();
        const rows = await readChangesAfter(this.livePool, this.cursor, BATCH_SIZE);
        this.dispatch(rows);
        full = rows.length === BATCH_SIZE;
      }
      wakeAgain = this.readAgain;
      for (const resolve of catchUps) resolve();
    } catch (error) {
      this.logger.warn({ err: error }, 'change feed could not read new events; retrying');
      // They wait for the retry; a closing hub lets them go (a closed hub registers no one).
      if (this.closed) for (const resolve of catchUps) resolve();
      else this.catchUps.unshift(...catchUps);
      this.retryLater();
    } finally {
      this.reading = false;
    }
    // Batches projected while this read ran: read them after the interval.
    if (wakeAgain) this.wake();
  }

  private retryLater(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.wake();
    }, RETRY_DELAY_MS);
    this.retryTimer.unref();
  }

  /**
   * Synchronous, so a client registered between two reads misses nothing of the second. Work goes by
   * distinct reader sets, not by row × audience: a read's rows share few `read_principals` sets (public,
   * an organization's), each set finds its audiences once, and audiences reached by the same sets get the
   * same rows — one encoded batch for all of them, written to each of their clients in one write.
   */
  private dispatch(rows: readonly ChangeRow[]): void {
    const last = rows.at(-1);
    if (!last) return;
    const readerSets = new Map<string, { readonly id: number; readonly principals: readonly string[] }>();
    /** The reader set of each row, by index. */
    const setOfRow = rows.map((row) => {
      const key = JSON.stringify(row.read_principals);
      let set = readerSets.get(key);
      if (!set) readerSets.set(key, (set = { id: readerSets.size, principals: row.read_principals }));
      return set.id;
    });
    /** Per audience, the ids of the reader sets that reach it, ascending. */
    const reachedBy = new Map<Audience, number[]>();
    for (const { id, principals } of readerSets.values()) {
      for (const audience of this.audiencesOf(principals)) {
        const ids = reachedBy.get(audience);
        if (ids) ids.push(id);
        else reachedBy.set(audience, [id]);
      }
    }
    const frames = new Map<ChangeRow, ChangeFrame | null>();
    const batches = new Map<string, LiveBatch | null>();
    for (const [audience, ids] of reachedBy) {
      const key = ids.join(',');
      let batch = batches.get(key);
      if (batch === undefined) {
        const reached = new Set(ids);
        const changes = rows
          .filter((_, index) => reached.has(setOfRow[index] ?? -1))
          .map((row) => this.frameOf(row, frames))
          .filter((change) => change !== null);
        batch = changes.length === 0 ? null : liveBatch(changes);
        batches.set(key, batch);
      }
      if (batch) for (const client of audience.clients) client.connection.deliver(batch);
    }
    this.cursor = { seq: BigInt(last.seq), position: last.position };
  }

  /** Built once per row; a row whose position cannot be read is skipped (logged), never the whole read. */
  private frameOf(row: ChangeRow, frames: Map<ChangeRow, ChangeFrame | null>): ChangeFrame | null {
    const known = frames.get(row);
    if (known !== undefined) return known;
    let frame: ChangeFrame | null = null;
    try {
      frame = changeFrame(row);
    } catch (error) {
      this.logger.error({ err: error, seq: row.seq }, 'change feed skipped an event it cannot frame');
    }
    frames.set(row, frame);
    return frame;
  }

  /** The audiences holding any of the principals, each once. */
  private audiencesOf(principals: readonly string[]): Set<Audience> {
    const readers = new Set<Audience>();
    for (const principal of principals) {
      const audiences = this.byPrincipal.get(principal);
      if (audiences) for (const audience of audiences) readers.add(audience);
    }
    return readers;
  }
}
