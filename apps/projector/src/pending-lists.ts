import {
  inTransaction,
  isInsufficientPrivilegeError,
  isUndefinedTableError,
  type Logger,
  type Pool,
} from '@portal/platform';

/**
 * A GIN index built with `fastupdate` (PostgreSQL's default) takes new entries into a pending list,
 * and the insert that grows the list past `gin_pending_list_limit` (4 MB) merges the whole list into
 * the index, in its own statement. For the projector that statement is a run of creates inside a batch
 * transaction: a run of 8 rows took 137 ms and wrote 1,600 pages, most likely such a merge, while the
 * machine's second core sat idle (bench/README.md, "Pending lists merged beside the batch"). So after
 * every `everyEvents` applied the projector merges the read schema's pending lists itself, on a
 * connection of its own, beside the next batches. PostgreSQL lets one session at a time merge a given
 * list, and an insert that finds a merge running skips its own, so the batches should seldom merge.
 * Autovacuum merges the lists too, but only when it vacuums or analyzes the table.
 */
export const MERGE_PENDING_LISTS_EVERY_EVENTS = 1_000;

/** The schema's GIN indexes that keep a pending list, by qualified name. */
const PENDING_LIST_INDEXES_SQL = `
  SELECT format('%I.%I', n.nspname, c.relname) AS name
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_am am ON am.oid = c.relam
   WHERE n.nspname = $1 AND c.relkind = 'i' AND am.amname = 'gin'
     AND NOT COALESCE(c.reloptions @> '{fastupdate=off}', false)
   ORDER BY c.relname`;

/** Merges a read schema's GIN pending lists beside the projector's batches (see above). */
export class PendingListMerger {
  private appliedSinceMerge = 0;
  private merging: Promise<void> | null = null;
  /** Indexes the projector's role does not own (only the owner may merge one): left to the inserts. */
  private readonly notOwned = new Set<string>();
  /** Whether the last merge failed: a failure that repeats every 1,000 events is logged once. */
  private failing = false;

  /** `everyEvents` 0: never merges (the inserts merge the lists, as PostgreSQL does by default). */
  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly log: Logger,
    private readonly everyEvents: number = MERGE_PENDING_LISTS_EVERY_EVENTS,
  ) {}

  /** Counts a batch's events, and starts a merge (not awaited) when enough were applied since the last. */
  eventsApplied(count: number): void {
    this.appliedSinceMerge += count;
    if (this.everyEvents === 0 || this.merging !== null || this.appliedSinceMerge < this.everyEvents) return;
    this.appliedSinceMerge = 0;
    this.merging = this.mergeLogged().finally(() => {
      this.merging = null;
    });
  }

  /** Resolves once no merge is running (a stopping projector waits for its connection). */
  async settled(): Promise<void> {
    await this.merging;
  }

  /** Merges every pending list of the schema now, one index after the other; the pages taken off them. */
  async merge(): Promise<number> {
    const indexes = await this.pool.query<{ name: string }>(PENDING_LIST_INDEXES_SQL, [this.schema]);
    let pages = 0;
    for (const { name } of indexes.rows) {
      if (this.notOwned.has(name)) continue;
      try {
        pages += await this.mergeIndex(name);
      } catch (error) {
        // Dropped since it was listed: a rebuild swapped the schema out, and the next merge finds the new one.
        if (isUndefinedTableError(error)) continue;
        if (!isInsufficientPrivilegeError(error)) throw error;
        this.notOwned.add(name);
        this.log.warn(
          { index: name },
          'cannot merge a GIN pending list (the projector does not own the index); inserts will merge it',
        );
      }
    }
    return pages;
  }

  /**
   * One index's pending list merged, in a transaction of its own: the merge holds one index's lock at a
   * time and never waits for another meanwhile, so it cannot deadlock with the drop of a schema a
   * rebuild swapped out (the drop waits for the merge running there to end). It waits at most a second
   * for the lock itself.
   */
  private async mergeIndex(name: string): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SET LOCAL lock_timeout = '1s'");
      const result = await client.query<{ pages: number }>(
        'SELECT gin_clean_pending_list($1::regclass)::int AS pages',
        [name],
      );
      return result.rows[0]?.pages ?? 0;
    });
  }

  private async mergeLogged(): Promise<void> {
    const startedAt = performance.now();
    try {
      const pages = await this.merge();
      if (this.failing) this.log.info({ schema: this.schema }, 'merging the GIN pending lists works again');
      this.failing = false;
      this.log.debug(
        { schema: this.schema, pages, durationMs: Math.round(performance.now() - startedAt) },
        'merged the GIN pending lists',
      );
    } catch (error) {
      const fields = { err: error, schema: this.schema };
      const message = 'merging the GIN pending lists failed; trying again after the next events';
      if (this.failing) this.log.debug(fields, message);
      else this.log.warn(fields, message);
      this.failing = true;
    }
  }
}
