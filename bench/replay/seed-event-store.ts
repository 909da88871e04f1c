import type pg from 'pg';
import type { PortalHistory, SeedRow } from './portal-history.js';

const ROWS_PER_STATEMENT = 5_000;
const ROWS_PER_TRANSACTION = 100_000;

export interface SeedOutcome {
  readonly events: number;
  readonly streams: number;
  readonly seconds: number;
}

function insertStatement(schema: string): string {
  // unnest yields the rows in array order, so the bigserial positions follow the history's order.
  return `
    INSERT INTO "${schema}".events (stream_id, stream_revision, event_id, type, data, metadata)
    SELECT * FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])`;
}

async function insertRows(client: pg.ClientBase, schema: string, rows: readonly SeedRow[]): Promise<void> {
  await client.query(insertStatement(schema), [
    rows.map((row) => row.streamId),
    rows.map((row) => row.revision),
    rows.map((row) => row.eventId),
    rows.map((row) => row.type),
    rows.map((row) => row.data),
    rows.map((row) => row.metadata),
  ]);
}

/**
 * Writes `count` events of `history` straight into the event store's tables, in large transactions,
 * then the stream revisions, then VACUUM ANALYZE so the replay reads a settled table as a live store's
 * autovacuum would leave it. Positions come from the table's defaults.
 */
export async function seedEventStore(
  client: pg.ClientBase,
  schema: string,
  history: PortalHistory,
  count: number,
  progress: (written: number) => void,
): Promise<SeedOutcome> {
  const startedAt = performance.now();
  let written = 0;
  while (written < count) {
    const inTransaction = Math.min(ROWS_PER_TRANSACTION, count - written);
    await client.query('BEGIN');
    for (let done = 0; done < inTransaction;) {
      const size = Math.min(ROWS_PER_STATEMENT, inTransaction - done);
      await insertRows(
        client,
        schema,
        Array.from({ length: size }, () => history.next()),
      );
      done += size;
    }
    await client.query('COMMIT');
    written += inTransaction;
    progress(written);
  }
  const streams = await client.query(
    `INSERT INTO "${schema}".streams (stream_id, revision)
     SELECT stream_id, max(stream_revision) FROM "${schema}".events GROUP BY stream_id`,
  );
  await client.query(`VACUUM (ANALYZE) "${schema}".events`);
  await client.query(`VACUUM (ANALYZE) "${schema}".streams`);
  return { events: written, streams: streams.rowCount ?? 0, seconds: (performance.now() - startedAt) / 1000 };
}
