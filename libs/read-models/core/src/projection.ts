import type { RecordedEvent } from '@portal/domain';
import type { Logger } from '@portal/platform';
import type pg from 'pg';

/** Anything that runs a query: a pool client inside the batch transaction. */
export type Sql = Pick<pg.ClientBase, 'query'>;

export interface HandlerContext {
  readonly log: Logger;
}

/**
 * What one event of a run touches, so that a run never holds two events whose order would matter
 * (apps/projector/src/sets/runs.ts). Keys name rows as `<table>:<key>`, or a fact of a row as
 * `<fact>:<key>` when events of a run may change the row's other columns in ways that commute.
 */
export interface Footprint {
  /**
   * What the event changes: no other event of the run may change or read it. (What an event changes
   * only in ways that commute, like a parent's child count, needs no key.)
   */
  readonly changes?: readonly string[];
  /** What the event's outcome depends on: no other event of the run may change it. */
  readonly reads?: readonly string[];
  /**
   * The slugs it takes or frees among its siblings: no other event of the run may take or free one of
   * the same family in the same sibling group.
   */
  readonly slugs?: readonly { readonly group: string; readonly base: string }[];
}

/** The footprint of each event of one batch, asked in event order, once per event. */
export type FootprintOf = (event: RecordedEvent) => Footprint | null;

/**
 * A read model's set-based handler: events that can be applied together are handed over as one run,
 * and the read model writes each of its tables once for the whole run.
 */
export interface SetHandler {
  /**
   * What `event` touches in this read model (`{}` for an event it ignores), or `null` when the event
   * must be applied on its own, with `apply`, between runs.
   */
  footprint(event: RecordedEvent): Footprint | null;
  /**
   * Optional, for footprints that need what the events do not carry (an object's parent, its slug,
   * whether anything lies below it): reads that once per batch, in the batch's transaction before any
   * of it is applied, and gives each event's footprint, following the batch through in event order. It
   * may only find more events able to join runs than `footprint` does, never fewer.
   */
  batchFootprints?(sql: Sql, events: readonly RecordedEvent[]): Promise<FootprintOf>;
  /**
   * Applies every event of a run (in event order, none of them `null` for any read model, no two of
   * them overlapping). Must leave exactly the rows that `apply`, event after event, would leave.
   */
  applyRun(sql: Sql, events: readonly RecordedEvent[], context: HandlerContext): Promise<void>;
  /**
   * Optional: whether this read model may apply `event`, which another read model applies alone, later,
   * with the next run's events (or at the end of the batch), saving it a statement. Deferred events
   * reach `applyRun` before the run's own, in event order, so `applyRun` must take any event this says
   * yes to. They are applied then, after the read models before this one applied what came between.
   */
  defers?(event: RecordedEvent): boolean;
  /**
   * With `defers`: whether `event`, applied by the read models before this one, may change what the
   * events deferred so far read from them. If so they are applied first, before any read model applies it.
   */
  endsDeferral?(event: RecordedEvent): boolean;
}

/**
 * One read model: its tables (DDL run with `search_path` set to the target schema, so it names no
 * schema), its handler per event and its handler per run. `apply` and `applyRun` must be idempotent:
 * applying an event a second time changes nothing.
 *
 * Its DDL comes in two parts, each index in exactly one: `ddl` makes the tables, keys and functions and
 * the indexes the projector's own statements use; `readerDdl` what only readers need. A read schema is
 * always created with both (`ensureReadSchema`); a rebuild replays with `ddl` alone and applies
 * `readerDdl` once its replay reached the head (docs/projection.md, "Lean rebuilds").
 */
export interface ReadModel {
  readonly name: string;
  /**
   * Raised whenever `ddl` or `readerDdl` changes what a schema built with them holds (a column, a key, what
   * a handler writes). A read schema records the versions it was built with; the projector rebuilds one
   * whose record differs at start instead of altering it in place (docs/projection.md, "Read model versions").
   */
  readonly version: number;
  /** Tables, keys, functions, and the indexes the projector's statements use (run as one script). */
  readonly ddl: string;
  /**
   * Statements, in order, that only readers need: indexes the API and workers read through, statistics,
   * the triggers of read models kept by triggers (those must fill themselves from the rows when they
   * arrive on a filled table). Applied after every read model's `ddl`. None when left out.
   */
  readonly readerDdl?: readonly string[];
  apply(sql: Sql, event: RecordedEvent, context: HandlerContext): Promise<void>;
  /** Without it, every event of the projection is applied alone. */
  readonly sets?: SetHandler;
  /**
   * Run once after a batch's events are applied, however they were (one by one or in runs), in the
   * batch's transaction before its checkpoint moves: work a read model does once for what the whole
   * batch changed. Must leave the same rows whatever the batch held.
   */
  finishBatch?(sql: Sql, context: HandlerContext): Promise<void>;
}

/**
 * A channel notified (empty payload) when a batch that holds an event raising it commits, beside the
 * checkpoint's own notification: lets other processes drop what they keep of the facts those events
 * change (the API's credential cache and identity events).
 */
export interface ProjectionSignal {
  readonly channel: string;
  raisedBy(event: RecordedEvent): boolean;
}

/** Read models fed by one subscription and one checkpoint, so they move forward together. */
export interface Projection {
  readonly name: string;
  readonly readModels: readonly ReadModel[];
  readonly signals?: readonly ProjectionSignal[];
}

/** The channels of `projection`'s signals that some event of the batch raises. */
export function signalsRaised(projection: Projection, events: readonly RecordedEvent[]): string[] {
  return (projection.signals ?? [])
    .filter((signal) => events.some((event) => signal.raisedBy(event)))
    .map((signal) => signal.channel);
}
