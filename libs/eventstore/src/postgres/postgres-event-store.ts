import { setTimeout as delay } from 'node:timers/promises';
import { START, upcastPortalObjectEvent, upcastRecordedEvent } from '@portal/domain';
import type {
  AppendOutcome,
  AppendResult,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  Position,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeAllOptions,
} from '@portal/domain';
import pg from 'pg';
import { outcomeOf, validateAppendMany } from '../append-many.js';
import { explainRefusedAppend, validateAppend, validateMaxBatchSize } from '../append-rules.js';
import { isAborted, subscriptionSignal } from '../abort.js';
import { ChangeSignal } from '../change-signal.js';
import { toStoredMetadata } from '../stored-metadata.js';
import { CommitNotifier } from './commit-notifier.js';
import { NotificationListener } from './notification-listener.js';
import { defaultEventStoreSchema, notificationChannel, validateSchemaName } from './schema.js';
import type { AppendManyEntryJson, AppendManyRow } from './append-many-statement.js';
import { buildStatements, expectationKind } from './statements.js';
import type { AppendedRow, EventRow, EventStoreStatements, RefusalRow } from './statements.js';

export interface PostgresEventStoreOptions {
  /** Schema holding the tables (see `ensureEventStoreSchema`); default `eventstore`. */
  readonly schema?: string;
  /** Fallback poll for a lost notification or a barrier lifted by a transaction that appended nothing. */
  readonly pollIntervalMs?: number;
  /** Problems of the LISTEN connection or of a commit notification; subscriptions survive them by polling. */
  readonly onListenerError?: (error: Error) => void;
  /** Called after every page a subscription reads, with its size; for metrics and tests. */
  readonly onPageRead?: (eventCount: number) => void;
}

/** Anything that runs a query: the pool, or a client inside the caller's open transaction. */
type Queryable = Pick<pg.ClientBase, 'query'>;

/** The one error code this adapter interprets: a unique index refused a row. */
const uniqueViolation = '23505';
const deadlockDetected = '40P01';
/** A refused append whose cause vanished before it could be explained is tried again this often. */
const maxAppendAttempts = 5;

/**
 * The `EventStore` port on PostgreSQL: one statement per append, subscriptions ordered by the
 * transaction-id barrier, woken by LISTEN/NOTIFY with polling as the safety net.
 */
export class PostgresEventStore implements EventStore {
  private readonly statements: EventStoreStatements;
  /** The schema holding this store's tables. */
  readonly schema: string;
  private readonly pollIntervalMs: number;
  private readonly onPageRead: (eventCount: number) => void;
  private readonly changes = new ChangeSignal();
  private readonly listener: NotificationListener;
  private readonly notifier: CommitNotifier;
  private readonly closing = new AbortController();
  private readonly channel: string;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    this.schema = validateSchemaName(options.schema ?? defaultEventStoreSchema);
    this.statements = buildStatements(this.schema);
    this.channel = notificationChannel(this.schema);
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.onPageRead = options.onPageRead ?? (() => undefined);
    const onListenerError = options.onListenerError ?? (() => undefined);
    this.listener = new NotificationListener(pool, this.channel, this.changes, onListenerError);
    this.notifier = new CommitNotifier(pool, this.channel, onListenerError);
  }

  async append(
    streamId: string,
    events: readonly EventToAppend[],
    options: { readonly expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    try {
      return await this.appendOn(this.pool, false, streamId, events, options.expectedRevision);
    } finally {
      // Also after a failed append: it may have held a transaction id that held the barrier back.
      this.committed();
    }
  }

  /**
   * Every entry in one statement and one transaction. Entries it refused are explained one by one (a
   * retry of an earlier success, or the error); if the statement itself fails (a duplicate event id,
   * a deadlock between two calls locking the same new streams), nothing of it was written and every
   * entry is appended on its own instead, so each gets its own outcome (positions then follow the
   * commits, not the request).
   */
  async appendMany(appends: readonly StreamAppend[]): Promise<readonly AppendOutcome[]> {
    validateAppendMany(appends);
    if (appends.length === 0) return [];
    const entries = appends.map(({ streamId, events, expectedRevision }, entry): AppendManyEntryJson => ({
      entry,
      stream_id: streamId,
      kind: expectationKind(expectedRevision),
      expected: typeof expectedRevision === 'bigint' ? expectedRevision.toString() : null,
      events: events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
    }));
    let rows: readonly AppendManyRow[];
    try {
      rows = (
        await this.pool.query<AppendManyRow>({
          name: `es_append_many_${this.schema}`,
          text: this.statements.appendMany,
          values: [JSON.stringify(entries)],
        })
      ).rows;
    } catch (error) {
      if (!isRetryableAsSingleAppends(error)) throw error;
      return await Promise.all(
        appends.map(({ streamId, events, expectedRevision }) =>
          outcomeOf(this.append(streamId, events, { expectedRevision })),
        ),
      );
    } finally {
      this.committed();
    }
    const written = new Map(rows.map((row) => [row.entry, row]));
    return Promise.all(
      appends.map(({ streamId, events, expectedRevision }, entry): Promise<AppendOutcome> => {
        const row = written.get(entry);
        if (row) {
          return Promise.resolve({
            ok: true,
            result: {
              nextRevision: BigInt(row.revision),
              position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
            },
          });
        }
        return outcomeOf(this.explainRefusedEntry(streamId, events, expectedRevision));
      }),
    );
  }

  /**
   * An entry `appendMany` did not write: the original result of a retry, or the error that refused it.
   * Only when nothing refuses it any more (the stream moved in between) is it appended on its own.
   */
  private async explainRefusedEntry(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const explained = await this.explainRefusal(this.pool, streamId, events, expected);
    return explained ?? this.append(streamId, events, { expectedRevision: expected });
  }

  /** After an append ended: wakes this process's subscriptions now, other processes' by NOTIFY. */
  private committed(): void {
    this.changes.notify();
    this.notifier.notifyCommitted();
  }

  /**
   * Appends on `client` inside the caller's open transaction: the events become visible (and
   * subscribers wake) when the caller commits. A savepoint keeps the caller's transaction usable
   * after a refused append.
   *
   * The transaction must append before it writes anything else, or call `prepareToAppend` first:
   * the ordering barrier only knows about transactions that took the appender lock before they had
   * a transaction id (appender-lock.ts), so a transaction that wrote first is refused here.
   */
  async appendWithin(
    client: pg.ClientBase,
    streamId: string,
    events: readonly EventToAppend[],
    options: { readonly expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    await this.prepareToAppend(client);
    return this.appendOn(client, true, streamId, events, options.expectedRevision);
  }

  /**
   * Makes the caller's open transaction an appender: call it before the transaction's first write
   * when it will append after writing something else. Throws when the transaction already wrote.
   * Held outside any savepoint, so a refused append later does not give the lock back.
   */
  async prepareToAppend(client: pg.ClientBase): Promise<void> {
    const result = await client.query<{ allowed: boolean }>({
      name: `es_take_appender_lock_${this.schema}`,
      text: this.statements.takeAppenderLockInTransaction,
    });
    if (!result.rows[0]?.allowed) {
      throw new Error(
        'this transaction wrote before it appended: call prepareToAppend(client) before its first write, ' +
          'or a subscriber could pass its events before they commit',
      );
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<readonly RecordedEvent[]> {
    const result = await this.pool.query<EventRow>({
      name: `es_read_stream_${this.schema}`,
      text: this.statements.readStream,
      values: [streamId, (options.fromRevision ?? 0n).toString()],
    });
    return result.rows.map(toRecordedEvent);
  }

  async streamRevision(streamId: string): Promise<bigint | null> {
    const result = await this.pool.query<{ revision: string }>({
      name: `es_stream_revision_${this.schema}`,
      text: this.statements.streamRevision,
      values: [streamId],
    });
    const row = result.rows[0];
    return row ? BigInt(row.revision) : null;
  }

  async *subscribeAll(options: SubscribeAllOptions): AsyncGenerator<readonly RecordedEvent[]> {
    const maxBatchSize = validateMaxBatchSize(options.maxBatchSize);
    const signal = subscriptionSignal(options.signal, this.closing.signal);
    if (isAborted(signal)) return;
    await this.listener.retain();
    try {
      let cursor = options.after;
      while (!isAborted(signal)) {
        const seen = this.changes.current;
        const page = await this.readAllPage(cursor, maxBatchSize, options.keepStoredJson === true);
        this.onPageRead(page.length);
        if (isAborted(signal)) return;
        const last = page.at(-1);
        if (last) {
          cursor = last.position;
          yield page;
          continue;
        }
        this.listener.reviveIfLost();
        await this.changes.waitForChange(seen, this.pollIntervalMs, signal);
      }
    } finally {
      await this.listener.release();
    }
  }

  async headPosition(): Promise<Position> {
    return this.headBelow(await this.readBarrier());
  }

  /**
   * Every append acknowledged before this call has a transaction id below the snapshot xmax the first
   * barrier read takes (its horizon). Once the barrier has reached the horizon, i.e. no appender older
   * than it still runs, all of them are visible to subscribers, and the head below it covers them.
   * Usually the first look already finds it so.
   */
  async syncPosition(signal?: AbortSignal): Promise<Position> {
    const first = await this.readBarrierAndHorizon();
    let barrier = first.barrier;
    for (let pause = 2; barrier < first.horizon; pause = Math.min(pause * 2, 50)) {
      await delay(pause, undefined, signal ? { signal } : {});
      barrier = await this.readBarrier();
    }
    return this.headBelow(barrier);
  }

  /** The newest event written, past the barrier too: no existing event lies beyond it. */
  async lastWrittenPosition(): Promise<Position> {
    const result = await this.pool.query<Pick<EventRow, 'commit_position' | 'prepare_position'>>({
      name: `es_last_written_${this.schema}`,
      text: this.statements.lastWrittenPosition,
    });
    const row = result.rows[0];
    return row ? toPosition(row) : START;
  }

  /** Ends every running subscription. The pool belongs to the caller and stays open. */
  close(): Promise<void> {
    this.closing.abort();
    return Promise.resolve();
  }

  private async appendOn(
    queryable: Queryable,
    inCallerTransaction: boolean,
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    validateAppend(streamId, events, expected);
    for (let attempt = 1; attempt <= maxAppendAttempts; attempt += 1) {
      const attemptAppend = (): Promise<AppendResult | null> =>
        this.tryAppend(queryable, inCallerTransaction, streamId, events, expected);
      const written = await (
        inCallerTransaction ? withSavepoint(queryable, attemptAppend) : attemptAppend()
      ).catch((error: unknown) => {
        // A stored event id (or, after a manual repair, a stored revision): explained below.
        if (isUniqueViolation(error)) return null;
        throw error;
      });
      if (written) return written;
      const explained = await this.explainRefusal(queryable, streamId, events, expected);
      if (explained) return explained;
    }
    throw new Error(
      `append to ${streamId} kept racing with other writers; gave up after ${maxAppendAttempts} attempts`,
    );
  }

  /**
   * The fast path: one statement that checks the revision, inserts and notifies; `null` when the
   * expected revision does not hold, a unique violation when an event id is already stored.
   */
  private async tryAppend(
    queryable: Queryable,
    inCallerTransaction: boolean,
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult | null> {
    const kind = expectationKind(expected);
    const values: unknown[] = [
      streamId,
      events.length,
      JSON.stringify(events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }))),
      // In the caller's transaction the commit is the caller's: PostgreSQL notifies when it happens.
      inCallerTransaction ? this.channel : null,
    ];
    if (typeof expected === 'bigint') values.push(expected.toString());
    const result = await queryable.query<AppendedRow>({
      name: `es_append_${kind}_${this.schema}`,
      text: this.statements.append[kind],
      values,
    });
    const row = result.rows[0];
    if (!row) return null;
    return {
      nextRevision: BigInt(row.revision),
      position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    };
  }

  /** The slow path, only after a refusal: a retry's original result, or the error that explains it. */
  private async explainRefusal(
    queryable: Queryable,
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult | null> {
    const result = await queryable.query<RefusalRow>(this.statements.explainRefusal, [
      streamId,
      events.map((event) => event.id),
    ]);
    const row = result.rows[0];
    const currentRevision = row?.current_revision == null ? null : BigInt(row.current_revision);
    const stored = (row?.stored ?? []).map((event) => ({
      id: event.id,
      streamId: event.streamId,
      revision: BigInt(event.revision),
      position: { commit: BigInt(event.commit), prepare: BigInt(event.prepare) },
    }));
    return explainRefusedAppend(streamId, events, expected, currentRevision, stored);
  }

  private async readAllPage(
    after: Position,
    limit: number,
    keepStoredJson: boolean,
  ): Promise<RecordedEvent[]> {
    const barrier = await this.readBarrier();
    // xid8 has no negative values; 0 is the invalid transaction id, below every real one.
    const commit = after.commit < 0n ? 0n : after.commit;
    if (commit >= barrier) return [];
    const result = await this.pool.query<EventRow>({
      name: `es_read_all_${this.schema}`,
      text: this.statements.readAllPage,
      values: [commit.toString(), after.prepare.toString(), limit, barrier.toString()],
      ...(keepStoredJson ? { types: jsonAsText } : {}),
    });
    return keepStoredJson ? result.rows.map(toRecordedEventKeepingJson) : result.rows.map(toRecordedEvent);
  }

  /**
   * The ordering barrier: no event with a transaction id below it can commit from now on. It must be
   * read in a statement of its own that finishes before the read it guards takes its snapshot.
   */
  private async readBarrier(): Promise<bigint> {
    return (await this.readBarrierAndHorizon()).barrier;
  }

  private async readBarrierAndHorizon(): Promise<{ barrier: bigint; horizon: bigint }> {
    const result = await this.pool.query<{ barrier: string; horizon: string }>({
      name: `es_barrier_${this.schema}`,
      text: this.statements.barrier,
    });
    const row = result.rows[0];
    if (!row) throw new Error('the barrier query returned no row');
    return { barrier: BigInt(row.barrier), horizon: BigInt(row.horizon) };
  }

  private async headBelow(barrier: bigint): Promise<Position> {
    const result = await this.pool.query<Pick<EventRow, 'commit_position' | 'prepare_position'>>({
      name: `es_head_${this.schema}`,
      text: this.statements.headPosition,
      values: [barrier.toString()],
    });
    const row = result.rows[0];
    return row ? toPosition(row) : START;
  }
}

/** Runs one statement so that its failure rolls back only itself, not the caller's transaction. */
async function withSavepoint<T>(queryable: Queryable, work: () => Promise<T>): Promise<T> {
  await queryable.query('SAVEPOINT portal_eventstore_append');
  try {
    const result = await work();
    await queryable.query('RELEASE SAVEPOINT portal_eventstore_append');
    return result;
  } catch (error) {
    await queryable.query('ROLLBACK TO SAVEPOINT portal_eventstore_append');
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === uniqueViolation;
}

/** A unique violation, or a deadlock between two calls that lock the same streams in another order. */
function isRetryableAsSingleAppends(error: unknown): boolean {
  return (
    isUniqueViolation(error) || (error instanceof Error && 'code' in error && error.code === deadlockDetected)
  );
}

function toPosition(row: Pick<EventRow, 'commit_position' | 'prepare_position'>): Position {
  return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
}

/** node-postgres's parsers, but `json` and `jsonb` columns arrive as their text, parsed here instead. */
const jsonAsText: pg.CustomTypesConfig = {
  getTypeParser: ((...[oid, format]: Parameters<typeof pg.types.getTypeParser>): unknown =>
    oid === pg.types.builtins.JSON || oid === pg.types.builtins.JSONB
      ? keepText
      : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

function keepText(text: string): string {
  return text;
}

/**
 * Decodes a row read with `jsonAsText`, keeping the text beside what it parses to when the event is
 * delivered as stored (not upcast): the text then parses to exactly `data` and `metadata`.
 */
function toRecordedEventKeepingJson(row: EventRow): RecordedEvent {
  const storedJson = { data: row.data as string, metadata: row.metadata as string };
  const data: unknown = JSON.parse(storedJson.data);
  const metadata = toStoredMetadata(JSON.parse(storedJson.metadata), row.event_id_text);
  const upcast = upcastPortalObjectEvent(row.type, data, metadata);
  if (upcast !== data) return decoded(row, upcast, metadata);
  // Built whole, not spread from the decoded event: V8 copies a spread object slowly, once per event.
  return {
    id: row.event_id_text,
    streamId: row.stream_id,
    revision: BigInt(row.stream_revision_text),
    position: toPosition(row),
    type: row.type,
    data,
    metadata,
    storedJson,
  };
}

/** Decodes a row; stored events of an older schema version reach readers in today's shape. */
function toRecordedEvent(row: EventRow): RecordedEvent {
  return upcastRecordedEvent(decoded(row, row.data, row.metadata));
}

function decoded(row: EventRow, data: unknown, metadata: unknown): RecordedEvent {
  return {
    id: row.event_id_text,
    streamId: row.stream_id,
    revision: BigInt(row.stream_revision_text),
    position: toPosition(row),
    type: row.type,
    data,
    metadata: toStoredMetadata(metadata, row.event_id_text),
  };
}
