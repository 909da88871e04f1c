import { inTransaction, type Logger, type Pool } from '@portal/platform';

/**
 * A GIN index built with `fastupdate` (PostgreSQL's default) takes new entries into a pending list,
 * and the insert that grows the list past `gin_pending_list_limit` (4 MB) merges the whole list into
 * the index, in its own statement. For the projector that statement is a run of creates inside a batch
 * transaction: a run of 8 rows took 137 ms and wrote 1,600 pages, most likely such a merge, while the
 * machine's second core sat idle (bench/README.md, "Pending lists merged beside the batch"). So after every
 * `everyEvents` applied the projector merges the read schema's pending lists itself, on a connection of
 * its own, beside the next batches. An insert that finds a merge running skips its own (PostgreSQL
 * merges one list once at a time), so the batches rarely merge at all. Autovacuum merges the lists
 * too, but only when it vacuums the table, long after they filled.
 */
export const MERGE_PENDING_LISTS_EVERY_EVENTS = 1_000;

/**
 * Every pending list of the schema's GIN indexes merged; the pages it took off the lists. An index
 * built without `fastupdate` has none and answers 0. Waits at most a second for a lock: a rebuild
 * swapping the schema out goes first, and the next merge finds the new one.
 */
const MERGE_SQL = `
  SELECT COALESCE(sum(gin_clean_pending_list(c.oid)), 0)::int AS pages
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_am am ON am.oid = c.relam
   WHERE n.nspname = $1 AND c.relkind = 'i' AND am.amname = 'gin'
     AND NOT COALESCE(c.reloptions @> '{fastupdate=off}', false)`;

/** PostgreSQL's SQLSTATE for a missing privilege: the projector's role does not own the indexes. */
const INSUFFICIENT_PRIVILEGE = '42501';

function sqlStateOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** Merges a read schema's GIN pending lists beside the projector's batches (see above). */
export class PendingListMerger {
  private appliedSinceMerge = 0;
  private merging: Promise<void> | null = null;
  private disabled = false;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly log: Logger,
    private readonly everyEvents: number = MERGE_PENDING_LISTS_EVERY_EVENTS,
  ) {}

  /** Counts a batch's events, and starts a merge (not awaited) when enough were applied since the last. */
  eventsApplied(count: number): void {
    this.appliedSinceMerge += count;
    if (this.disabled || this.merging !== null || this.appliedSinceMerge < this.everyEvents) return;
    this.appliedSinceMerge = 0;
    this.merging = this.mergeLogged().finally(() => {
      this.merging = null;
    });
  }

  /** Resolves once no merge is running (a stopping projector waits for its connection). */
  async settled(): Promise<void> {
    await this.merging;
  }

  /** Merges every pending list of the schema now; the pages taken off them. */
  async merge(): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SET LOCAL lock_timeout = '1s'");
      const result = await client.query<{ pages: number }>(MERGE_SQL, [this.schema]);
      return result.rows[0]?.pages ?? 0;
    });
  }

  private async mergeLogged(): Promise<void> {
    const startedAt = performance.now();
    try {
      const pages = await this.merge();
      this.log.debug(
        { schema: this.schema, pages, durationMs: Math.round(performance.now() - startedAt) },
        'merged the GIN pending lists',
      );
    } catch (error) {
      // Only the owner of an index may merge it: a role that is not goes on without, as before.
      if (sqlStateOf(error) === INSUFFICIENT_PRIVILEGE) this.disabled = true;
      this.log.warn(
        { err: error, schema: this.schema, stopped: this.disabled },
        this.disabled
          ? 'cannot merge the GIN pending lists (the projector does not own the indexes); batches will'
          : 'merging the GIN pending lists failed; trying again later',
      );
    }
  }
}
