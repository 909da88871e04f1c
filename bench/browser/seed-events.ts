import type pg from 'pg';
import type { SeedEvent } from './tree-generator.js';

/**
 * Rows per transaction. Kept small on purpose: the event store's subscribers read only below the oldest
 * running transaction of the whole server, so a long seeding transaction would stall every other
 * projector (and test) on a shared PostgreSQL.
 */
const ROWS_PER_TRANSACTION = 5_000;

export interface SeedOutcome {
  readonly events: number;
  readonly streams: number;
  readonly seconds: number;
}

function insertStatement(schema: string): string {
  // unnest yields the rows in array order, so the bigserial positions follow the history's order; the
  // streams' revisions go in with their events, in the same short transaction.
  return `
    WITH rows AS (
      SELECT * FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])
        AS r(stream_id, stream_revision, event_id, type, data, metadata)
    ), appended AS (
      INSERT INTO "${schema}".events (stream_id, stream_revision, event_id, type, data, metadata)
      SELECT stream_id, stream_revision, event_id, type, data, metadata FROM rows
    )
    INSERT INTO "${schema}".streams (stream_id, revision)
    SELECT stream_id, max(stream_revision) FROM rows GROUP BY stream_id
    ON CONFLICT (stream_id) DO UPDATE SET revision = GREATEST("${schema}".streams.revision, excluded.revision)`;
}

async function insertRows(client: pg.ClientBase, schema: string, rows: readonly SeedEvent[]): Promise<void> {
  await client.query(insertStatement(schema), [
    rows.map((row) => row.streamId),
    rows.map((row) => row.revision),
    rows.map((row) => row.eventId),
    rows.map((row) => row.type),
    rows.map((row) => row.data),
    rows.map((row) => row.metadata),
  ]);
}

/** Appends the generated history straight into the event store's tables, in short transactions. */
export async function seedEvents(
  client: pg.ClientBase,
  schema: string,
  events: Iterable<SeedEvent>,
  progress: (written: number) => void,
): Promise<SeedOutcome> {
  const startedAt = performance.now();
  let written = 0;
  let chunk: SeedEvent[] = [];
  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    await insertRows(client, schema, chunk);
    written += chunk.length;
    chunk = [];
    if (written % 100_000 < ROWS_PER_TRANSACTION) progress(written);
  };
  for (const event of events) {
    chunk.push(event);
    if (chunk.length === ROWS_PER_TRANSACTION) await flush();
  }
  await flush();
  const streams = await client.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM "${schema}".streams`,
  );
  await client.query(`VACUUM (ANALYZE) "${schema}".events`);
  await client.query(`VACUUM (ANALYZE) "${schema}".streams`);
  return {
    events: written,
    streams: Number(streams.rows[0]?.count ?? 0),
    seconds: (performance.now() - startedAt) / 1000,
  };
}
