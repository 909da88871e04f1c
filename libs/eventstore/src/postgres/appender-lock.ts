import { nameHash } from '@portal/platform';

/**
 * The ordering barrier of the PostgreSQL store depends only on transactions that append to it.
 *
 * Every appending transaction holds a shared, transaction-scoped advisory lock of its schema, taken
 * before the transaction has an id; a reader takes the oldest transaction id among the lock's holders
 * as the barrier. A long transaction elsewhere in the cluster (another database, a migration, a bulk
 * load) holds no such lock and so never holds subscribers back, as the cluster-wide snapshot xmin
 * would. libs/eventstore/README.md ("The barrier") gives the argument why no committed event is ever skipped.
 */
const appenderNamespace = 0x45565354; // "EVST": keeps our keys apart from other users of advisory locks

export interface AppenderLockKey {
  /** The lock's first int4 key (`classid` in pg_locks). */
  readonly namespace: number;
  /** The lock's second int4 key (`objid` in pg_locks), non-negative so it reads the same as an oid. */
  readonly id: number;
}

export function appenderLockKey(schema: string): AppenderLockKey {
  // A fixed hash of the schema name (every process derives the same key), kept non-negative.
  return { namespace: appenderNamespace, id: nameHash(schema) & 0x7fffffff };
}

/** Takes the schema's appender lock for the rest of the transaction; shared, so appenders never wait. */
export function takeAppenderLockSql(key: AppenderLockKey): string {
  return `pg_advisory_xact_lock_shared(${key.namespace}, ${key.id})`;
}

/** The advisory rows of the appender lock of `key` in this database (two-key form: objsubid 2). */
function appenderLockFilter(key: AppenderLockKey, alias: string): string {
  return `
        ${alias}.locktype = 'advisory'
    AND ${alias}.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND ${alias}.classid = ${key.namespace}::oid
    AND ${alias}.objid = ${key.id}::oid
    AND ${alias}.objsubid = 2`;
}

/**
 * Whether this transaction may append, taking the appender lock when it may, in one statement: it has
 * no transaction id yet (the lock comes first), or it already holds the lock. A transaction that wrote
 * before locking could commit an event below a barrier a reader already passed. The lock is taken only
 * in the CASE branch that allows it.
 */
export function takeAppenderLockInTransactionSql(key: AppenderLockKey): string {
  return `
    SELECT CASE
      WHEN pg_current_xact_id_if_assigned() IS NULL
        OR EXISTS (SELECT 1 FROM pg_locks appender
                   WHERE ${appenderLockFilter(key, 'appender')} AND appender.pid = pg_backend_pid())
      THEN (SELECT true FROM (SELECT ${takeAppenderLockSql(key)}) AS taken)
      ELSE false
    END AS allowed`;
}

/**
 * The barrier now: the oldest transaction id among the appender lock's holders, or the snapshot's xmax
 * when no holder is older. Every event with a transaction id below it is committed or rolled back, so a
 * statement run AFTER this one (with a snapshot of its own) sees all of them that ever will exist.
 *
 * PostgreSQL makes a new transaction id running (in the snapshot's xip list) a moment before it adds
 * that transaction's own lock row to pg_locks; in that moment an appender holds the advisory lock with
 * no id to show. So running ids without a lock row count as holders too (they are only ever in that
 * moment, or ended after the snapshot: either way, waiting for them is safe and brief).
 *
 * pg_locks names a transaction by its 32-bit xid; it is widened to xid8 next to the snapshot's xmax
 * (a running transaction is always within 2^31 of it). pg_locks is read once.
 */
export function barrierSql(key: AppenderLockKey): string {
  return `
    WITH snap AS MATERIALIZED (SELECT pg_current_snapshot() AS s),
    horizon AS (SELECT pg_snapshot_xmax(s)::text::bigint AS xmax FROM snap),
    locks AS MATERIALIZED (
      SELECT locktype, database, classid, objid, objsubid, virtualtransaction, transactionid, mode, granted
      FROM pg_locks
    ),
    holders AS (
      SELECT own.transactionid::text::bigint AS xid32
      FROM locks appender
      JOIN locks own
        ON own.virtualtransaction = appender.virtualtransaction
       AND own.locktype = 'transactionid'
       AND own.mode = 'ExclusiveLock'
       AND own.granted
      WHERE ${appenderLockFilter(key, 'appender')}
    ),
    widened AS (
      SELECT horizon.xmax - (horizon.xmax % 4294967296) + holders.xid32 AS candidate, horizon.xmax
      FROM holders CROSS JOIN horizon
    ),
    unlocked AS (
      SELECT running::text::bigint AS xid
      FROM snap CROSS JOIN pg_snapshot_xip(snap.s) AS running
      WHERE NOT EXISTS (
        SELECT 1 FROM locks
        WHERE locks.locktype = 'transactionid'
          AND locks.transactionid::text::bigint = running::text::bigint % 4294967296
      )
    )
    SELECT least(
      (SELECT xmax FROM horizon),
      (SELECT min(CASE
         WHEN candidate - xmax > 2147483648 THEN candidate - 4294967296
         WHEN xmax - candidate > 2147483648 THEN candidate + 4294967296
         ELSE candidate END) FROM widened),
      (SELECT min(xid) FROM unlocked)
    )::text AS barrier,
    (SELECT xmax FROM horizon)::text AS horizon`;
}
