import { takeAppenderLockSql, type AppenderLockKey } from './appender-lock.js';

/** The jsonb shape of one entry of `$1`. */
export interface AppendManyEntryJson {
  readonly entry: number;
  readonly stream_id: string;
  readonly kind: 'no_stream' | 'any' | 'exists' | 'revision';
  /** The expected revision as text when `kind` is `revision`. */
  readonly expected: string | null;
  readonly events: readonly { id: string; type: string; data: unknown; metadata: unknown }[];
}

export interface AppendManyRow {
  readonly entry: number;
  readonly revision: string;
  readonly global_position: string;
  readonly transaction_id: string;
}

/**
 * One statement that appends every entry of `$1` whose expected revision holds: a row per written
 * entry; an entry without a row was refused and is explained afterwards. Each stream appears once, so
 * the three kinds of revision bump never touch the same row. Events are inserted in request order, so
 * positions follow it. It runs in its own transaction and notifies after commit, like `append`.
 */
export function appendManySql(s: string, lockKey: AppenderLockKey): string {
  return `
    WITH appender AS MATERIALIZED (SELECT ${takeAppenderLockSql(lockKey)}),
    request AS MATERIALIZED (
      SELECT r.entry, r.stream_id, r.kind, r.expected, jsonb_array_length(r.events)::bigint AS count, r.events
      FROM appender
      CROSS JOIN jsonb_to_recordset($1::jsonb)
        AS r (entry int, stream_id text, kind text, expected bigint, events jsonb)
    ),
    -- The existing rows, locked once in stream order before any bump: two calls naming the same streams
    -- then wait for each other instead of deadlocking kind by kind.
    locked AS MATERIALIZED (
      SELECT stream.stream_id FROM ${s}.streams AS stream
      WHERE stream.stream_id IN (SELECT stream_id FROM request)
      ORDER BY stream.stream_id
      FOR UPDATE
    ),
    ready AS MATERIALIZED (SELECT count(*) AS existing FROM locked),
    created AS (
      INSERT INTO ${s}.streams (stream_id, revision)
      SELECT stream_id, count - 1 FROM request CROSS JOIN ready WHERE kind = 'no_stream' ORDER BY stream_id
      ON CONFLICT (stream_id) DO NOTHING
      RETURNING stream_id, revision
    ),
    upserted AS (
      INSERT INTO ${s}.streams AS stream (stream_id, revision)
      SELECT stream_id, count - 1 FROM request CROSS JOIN ready WHERE kind = 'any' ORDER BY stream_id
      ON CONFLICT (stream_id) DO UPDATE SET revision = stream.revision + excluded.revision + 1
      RETURNING stream_id, revision
    ),
    updated AS (
      UPDATE ${s}.streams AS stream SET revision = stream.revision + request.count
      FROM request CROSS JOIN ready
      WHERE stream.stream_id = request.stream_id
        AND (request.kind = 'exists' OR (request.kind = 'revision' AND stream.revision = request.expected))
      RETURNING stream.stream_id, stream.revision
    ),
    bumped AS (
      SELECT stream_id, revision FROM created
      UNION ALL SELECT stream_id, revision FROM upserted
      UNION ALL SELECT stream_id, revision FROM updated
    ),
    inserted AS (
      INSERT INTO ${s}.events (stream_id, stream_revision, event_id, type, data, metadata)
      SELECT request.stream_id, bumped.revision - request.count + batch.ordinality, batch.id, batch.type,
             -- jsonb_to_recordset turns a JSON null into SQL NULL; the event's data is JSON null.
             coalesce(batch.data, 'null'::jsonb), batch.metadata
      FROM request
      JOIN bumped ON bumped.stream_id = request.stream_id
      CROSS JOIN ROWS FROM (
        jsonb_to_recordset(request.events) AS (id uuid, type text, data jsonb, metadata jsonb)
      ) WITH ORDINALITY AS batch (id, type, data, metadata, ordinality)
      ORDER BY request.entry, batch.ordinality
      RETURNING stream_id, stream_revision, global_position
    )
    SELECT request.entry,
           max(inserted.stream_revision)::text AS revision,
           max(inserted.global_position)::text AS global_position,
           pg_current_xact_id()::text AS transaction_id
    FROM request
    JOIN inserted ON inserted.stream_id = request.stream_id
    GROUP BY request.entry`;
}
