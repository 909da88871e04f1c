import type { Logger, Pool } from '@portal/platform';
import { quoteIdentifier } from '@portal/read-model-core';

/**
 * The projector's statements run with PostgreSQL's default plan cache: after five executions a
 * prepared statement may keep one generic plan, chosen from the table's statistics. Planned on tables
 * that were never analyzed, or analyzed while (nearly) empty, such a plan can scan a whole table or
 * partial index for a key lookup and slow replay down as the table grows (bench/README.md,
 * "Findings"). So a read schema found never analyzed is analyzed at once (it may be large already),
 * its batches plan each statement for its parameters until it has been analyzed again after the first
 * of these many events, and it is analyzed after each of them while it grows from nothing. Later growth
 * is autovacuum's to follow.
 */
export const ANALYZE_AFTER_EVENTS: readonly number[] = [10_000, 100_000];

/** ANALYZE the schema's tables (or those named), one statement each. */
export async function analyzeTables(pool: Pool, schema: string, tables?: readonly string[]): Promise<void> {
  const names =
    tables ??
    (
      await pool.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [
        schema,
      ])
    ).rows.map(({ tablename }) => tablename);
  for (const table of names) {
    await pool.query(`ANALYZE ${quoteIdentifier(schema)}.${quoteIdentifier(table)}`);
  }
}

/** Keeps a read schema's statistics fresh while a projector or a rebuild fills it from scratch. */
export class ReadSchemaStatistics {
  private applied = 0;
  private growing = false;
  private readonly pending: number[] = [...ANALYZE_AFTER_EVENTS];

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly log: Logger,
  ) {}

  /**
   * Analyzes the tables that were never analyzed (`reltuples` is -1 until the first ANALYZE or VACUUM),
   * and if there were any, analyzes the schema again after each of `ANALYZE_AFTER_EVENTS`.
   */
  async analyzeIfNever(): Promise<void> {
    const never = await this.pool.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r' AND c.reltuples < 0`,
      [this.schema],
    );
    if (never.rows.length === 0) return;
    this.growing = true;
    this.log.info(
      { schema: this.schema, tables: never.rows.length },
      'analyzing a read schema never analyzed',
    );
    await analyzeTables(
      this.pool,
      this.schema,
      never.rows.map(({ relname }) => relname),
    );
  }

  /**
   * Whether batches should plan every statement for its parameters: while the schema grows from
   * nothing and was not analyzed at a size yet (a custom plan sees the table's current size).
   */
  customPlans(): boolean {
    return this.growing && this.pending.length === ANALYZE_AFTER_EVENTS.length;
  }

  async eventsApplied(count: number): Promise<void> {
    this.applied += count;
    const threshold = this.pending[0];
    if (!this.growing || threshold === undefined || this.applied < threshold) return;
    // One ANALYZE however many thresholds a large batch passed.
    while ((this.pending[0] ?? Infinity) <= this.applied) this.pending.shift();
    const startedAt = performance.now();
    await analyzeTables(this.pool, this.schema);
    this.log.info(
      { schema: this.schema, events: this.applied, durationMs: Math.round(performance.now() - startedAt) },
      'analyzed the growing read schema',
    );
  }
}
