import type { ExpectedRevision } from '@portal/domain';
import { assertNever } from '../append-rules.js';
import { appendManySql } from './append-many-statement.js';
import {
  appenderLockKey,
  barrierSql,
  takeAppenderLockInTransactionSql,
  takeAppenderLockSql,
} from './appender-lock.js';
import { validateSchemaName } from './schema.js';

/**
 * The SQL of the PostgreSQL adapter, built once per schema.
 * Every bigint and xid8 is selected as text so results do not depend on the process-wide pg type
 * parsers; output columns get names of their own so ORDER BY always sorts the typed columns.
 */

const eventColumns = `
  e.transaction_id::text AS commit_position,
  e.global_position::text AS prepare_position,
  e.stream_id,
  e.stream_revision::text AS stream_revision_text,
  e.event_id::text AS event_id_text,
  e.type,
  e.data,
  e.metadata`;

export interface EventRow {
  readonly commit_position: string;
  readonly prepare_position: string;
  readonly stream_id: string;
  readonly stream_revision_text: string;
  readonly event_id_text: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
}

export interface AppendedRow {
  readonly revision: string;
  readonly global_position: string;
  readonly transaction_id: string;
}

export interface RefusalRow {
  readonly current_revision: string | null;
  readonly stored: readonly {
    readonly id: string;
    readonly streamId: string;
    readonly revision: string;
    readonly commit: string;
    readonly prepare: string;
  }[];
}

export type ExpectationKind = 'no_stream' | 'exists' | 'any' | 'revision';

export function expectationKind(expected: ExpectedRevision): ExpectationKind {
  return typeof expected === 'bigint' ? 'revision' : expected;
}

export interface EventStoreStatements {
  /**
   * $1 stream, $2 event count, $3 events as a jsonb array, $4 channel to notify at commit or NULL
   * (an append in its own transaction notifies after commit instead: commit-notifier.ts),
   * [$5 expected revision].
   */
  readonly append: Readonly<Record<ExpectationKind, string>>;
  /** $1 entries as a jsonb array (append-many-statement.ts). */
  readonly appendMany: string;
  /** $1 stream, $2 event ids: the stream's revision and the already stored events among the ids. */
  readonly explainRefusal: string;
  /** $1 stream, $2 first revision. */
  readonly readStream: string;
  /** $1 stream: its last revision, no row for a missing stream. */
  readonly streamRevision: string;
  /** Takes the appender lock in the caller's open transaction, if it may append (appender-lock.ts). */
  readonly takeAppenderLockInTransaction: string;
  /** The ordering barrier now and the snapshot's xmax (its horizon); read in a statement of its own. */
  readonly barrier: string;
  /** $1 commit, $2 prepare (exclusive lower bound), $3 limit, $4 barrier: rows below the barrier. */
  readonly readAllPage: string;
  /** $1 barrier: the newest row below it. */
  readonly headPosition: string;
  /** The newest committed row, above the barrier too. */
  readonly lastWrittenPosition: string;
}

export function buildStatements(schemaName: string): EventStoreStatements {
  const s = `"${validateSchemaName(schemaName)}"`;
  const lockKey = appenderLockKey(schemaName);
  // The lock is taken before the stream row is written, i.e. before the transaction gets its id.
  const append = (kind: ExpectationKind): string => `
    WITH appender AS MATERIALIZED (SELECT ${takeAppenderLockSql(lockKey)}),
    bumped AS (${bumpRevision(s, kind)}),
    inserted AS (
      INSERT INTO ${s}.events (stream_id, stream_revision, event_id, type, data, metadata)
      SELECT $1, bumped.revision - $2::bigint + batch.ordinality, batch.id, batch.type,
             -- jsonb_to_recordset turns a JSON null into SQL NULL; the event's data is JSON null.
             coalesce(batch.data, 'null'::jsonb), batch.metadata
      FROM bumped
      CROSS JOIN ROWS FROM (
        jsonb_to_recordset($3::jsonb) AS (id uuid, type text, data jsonb, metadata jsonb)
      ) WITH ORDINALITY AS batch (id, type, data, metadata, ordinality)
      ORDER BY batch.ordinality
      RETURNING stream_revision, global_position
    )
    SELECT max(stream_revision)::text AS revision,
           max(global_position)::text AS global_position,
           pg_current_xact_id()::text AS transaction_id,
           CASE WHEN $4::text IS NOT NULL THEN pg_notify($4::text, '') END AS notified
    FROM inserted
    HAVING count(*) > 0`;

  return {
    append: {
      no_stream: append('no_stream'),
      exists: append('exists'),
      any: append('any'),
      revision: append('revision'),
    },
    appendMany: appendManySql(s, lockKey),
    explainRefusal: `
      SELECT
        (SELECT revision::text FROM ${s}.streams WHERE stream_id = $1) AS current_revision,
        coalesce((
          SELECT json_agg(json_build_object(
            'id', event_id, 'streamId', stream_id, 'revision', stream_revision::text,
            'commit', transaction_id::text, 'prepare', global_position::text))
          FROM ${s}.events WHERE event_id = ANY($2::uuid[])
        ), '[]'::json) AS stored`,
    readStream: `
      SELECT ${eventColumns} FROM ${s}.events e
      WHERE e.stream_id = $1 AND e.stream_revision >= $2::bigint
      ORDER BY e.stream_revision`,
    streamRevision: `SELECT revision::text AS revision FROM ${s}.streams WHERE stream_id = $1`,
    takeAppenderLockInTransaction: takeAppenderLockInTransactionSql(lockKey),
    barrier: barrierSql(lockKey),
    readAllPage: `
      SELECT ${eventColumns} FROM ${s}.events e
      WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
        AND e.transaction_id < $4::xid8
      ORDER BY e.transaction_id, e.global_position
      LIMIT $3`,
    headPosition: `
      SELECT e.transaction_id::text AS commit_position, e.global_position::text AS prepare_position
      FROM ${s}.events e
      WHERE e.transaction_id < $1::xid8
      ORDER BY e.transaction_id DESC, e.global_position DESC
      LIMIT 1`,
    lastWrittenPosition: `
      SELECT e.transaction_id::text AS commit_position, e.global_position::text AS prepare_position
      FROM ${s}.events e
      ORDER BY e.transaction_id DESC, e.global_position DESC
      LIMIT 1`,
  };
}

/**
 * One statement per expectation that moves the stream's revision by the event count and returns the
 * new last revision, or returns no row when the expectation does not hold. Under READ COMMITTED a
 * concurrent writer's row lock makes it wait and then re-check against the committed revision.
 * Each reads the `appender` CTE, so the appender lock is held before the first row is written.
 */
function bumpRevision(s: string, kind: ExpectationKind): string {
  switch (kind) {
    case 'no_stream':
      return `INSERT INTO ${s}.streams (stream_id, revision) SELECT $1, $2::bigint - 1 FROM appender
              ON CONFLICT (stream_id) DO NOTHING RETURNING revision`;
    case 'any':
      return `INSERT INTO ${s}.streams AS stream (stream_id, revision) SELECT $1, $2::bigint - 1 FROM appender
              ON CONFLICT (stream_id) DO UPDATE SET revision = stream.revision + $2::bigint RETURNING revision`;
    case 'exists':
      return `UPDATE ${s}.streams SET revision = revision + $2::bigint FROM appender
              WHERE stream_id = $1 RETURNING revision`;
    case 'revision':
      return `UPDATE ${s}.streams SET revision = revision + $2::bigint FROM appender
              WHERE stream_id = $1 AND revision = $5::bigint RETURNING revision`;
    default:
      return assertNever(kind);
  }
}
