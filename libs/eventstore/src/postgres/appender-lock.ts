/**
 * The ordering barrier of the PostgreSQL store depends only on transactions that append to it.
 *
 * Every appending transaction holds a shared, transaction-scoped advisory lock of its schema, taken
 * before the transaction has an id; a reader takes the oldest transaction id among the lock's holders
 * as the barrier. A long transaction elsewhere in the cluster (another database, a migration, a bulk
 * load) holds no such lock and so never holds subscribers back, as the cluster-wide snapshot xmin
 * would. libs/eventstore/README.md ("The barrier") gives the argument why no committed event is ever skipped.
 *
 * Keys are fixed hashes computed here rather than `hashtext()`, whose output PostgreSQL does not promise
 * to keep: every process must derive the same key from the same schema name.
 */
const appenderNamespace = 0x45565354; // "EVST": keeps our keys apart from other users of advisory locks

export interface AppenderLockKey {
  /** The lock's first int4 key (`classid` in pg_locks). */
  readonly namespace: number;
  /** The lock's second int4 key (`objid` in pg_locks), non-negative so it reads the same as an oid. */
  readonly id: number;
}

export function appenderLockKey(schema: string): AppenderLockKey {
  // FNV-1a, 32 bit, folded into the non-negative int4 range.
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(schema)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return { namespace: appenderNamespace, id: hash & 0x7fffffff };
}

/** Takes the schema's appender lock for the rest of the transaction; shared, so appenders never wait. */
export function takeAppenderLockSql(key: AppenderLockKey): string {
  return `pg_advisory_xact_lock_shared(${key.namespace}, ${key.id})`;
}

/** The pg_locks rows of the appender lock of `key` in this database (two-key advisory locks: objsubid 2). */
function appenderLockRows(key: AppenderLockKey): string {
  return `
    pg_locks appender
    WHERE appender.locktype = 'advisory'
      AND appender.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND appender.classid = ${key.namespace}::oid
      AND appender.objid = ${key.id}::oid
      AND appender.objsubid = 2`;
}

/**
 * Whether this transaction may append: it has no transaction id yet (the lock will come first), or it
 * already holds the appender lock. A transaction that wrote before locking could commit an event below
 * a barrier a reader already passed.
 */
export function mayAppendInTransactionSql(key: AppenderLockKey): string {
  return `
    SELECT pg_current_xact_id_if_assigned() IS NULL
        OR EXISTS (SELECT 1 FROM ${appenderLockRows(key)} AND appender.pid = pg_backend_pid()) AS allowed`;
}

/**
 * The barrier now: the oldest transaction id among the appender lock's holders, or the snapshot's xmax
 * when no holder is older. Every event with a transaction id below it is committed or rolled back, so a
 * statement run AFTER this one (with a snapshot of its own) sees all of them that ever will exist.
 *
 * pg_locks names a transaction by its 32-bit xid; it is widened to xid8 next to the snapshot's xmax
 * (a running transaction is always within 2^31 of it).
 */
export function barrierSql(key: AppenderLockKey): string {
  return `
    WITH horizon AS (
      SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax
    ),
    holders AS (
      SELECT own.transactionid::text::bigint AS xid32
      FROM (SELECT appender.virtualtransaction FROM ${appenderLockRows(key)}) AS appender
      JOIN pg_locks own
        ON own.virtualtransaction = appender.virtualtransaction
       AND own.locktype = 'transactionid'
       AND own.mode = 'ExclusiveLock'
       AND own.granted
    ),
    widened AS (
      SELECT horizon.xmax - (horizon.xmax % 4294967296) + holders.xid32 AS candidate, horizon.xmax
      FROM holders CROSS JOIN horizon
    )
    SELECT least(
      (SELECT xmax FROM horizon),
      (SELECT min(CASE
         WHEN candidate - xmax > 2147483648 THEN candidate - 4294967296
         WHEN xmax - candidate > 2147483648 THEN candidate + 4294967296
         ELSE candidate END) FROM widened)
    )::text AS barrier,
    (SELECT xmax FROM horizon)::text AS horizon`;
}
