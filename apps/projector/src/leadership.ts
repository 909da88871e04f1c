import type { Logger, Pool, PoolClient } from '@portal/platform';
import { abortableDelay } from './abortable-delay.js';
import { advisoryLockKey } from './advisory-lock-key.js';

export interface Leadership {
  /** Aborts when the lock's connection fails: another instance may take over, so stop projecting. */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

export interface LeadershipOptions {
  /** What is led, e.g. `projection:portal:read`; instances with the same name exclude each other. */
  readonly name: string;
  readonly signal: AbortSignal;
  readonly log: Logger;
  readonly retryMs?: number;
  /** How often the held connection is checked, so a silently dead one is noticed. */
  readonly healthCheckMs?: number;
}

/**
 * Waits until this instance holds the session advisory lock for `options.name` on a connection kept out
 * of the pool for as long as it leads. While another instance holds it, logs once that it is standby and
 * retries every `retryMs`. The lock dies with its connection, so a crashed leader frees it at once.
 * Returns `null` when `signal` aborts first.
 */
export async function acquireLeadership(pool: Pool, options: LeadershipOptions): Promise<Leadership | null> {
  const { name, signal, log } = options;
  const key = advisoryLockKey(name);
  let standbyLogged = false;
  while (!signal.aborted) {
    let client: PoolClient | undefined;
    const onError = (error: Error): void => {
      log.warn({ err: error, lock: name }, 'connection failed while trying the projection lock');
    };
    try {
      client = await pool.connect();
      client.on('error', onError);
      const result = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2) AS locked',
        [key.namespace, key.id],
      );
      client.off('error', onError);
      if (result.rows[0]?.locked === true) {
        log.info({ lock: name }, 'leader: holding the projection lock');
        return hold(client, { ...options, key });
      }
      client.release();
      if (!standbyLogged) log.info({ lock: name }, 'standby: another projector holds the lock');
      else log.debug({ lock: name }, 'standby: lock still held elsewhere');
      standbyLogged = true;
    } catch (error) {
      client?.off('error', onError);
      client?.release(error instanceof Error ? error : true);
      log.warn({ err: error, lock: name }, 'could not try the projection lock; retrying');
    }
    await abortableDelay(options.retryMs ?? 1_000, signal);
  }
  return null;
}

function hold(
  client: PoolClient,
  options: LeadershipOptions & { key: ReturnType<typeof advisoryLockKey> },
): Leadership {
  const lost = new AbortController();
  let released = false;
  const loseWith = (reason: unknown): void => {
    if (released || lost.signal.aborted) return;
    options.log.error(
      { err: reason, lock: options.name },
      'lost the projection lock connection; stepping down',
    );
    lost.abort(reason);
  };
  const onError = (error: Error): void => {
    loseWith(error);
  };
  const onEnd = (): void => {
    loseWith(new Error('lock connection ended'));
  };
  client.on('error', onError);
  client.on('end', onEnd);
  const health = setInterval(() => {
    client.query('SELECT 1').catch(loseWith);
  }, options.healthCheckMs ?? 2_000);
  health.unref();

  return {
    lost: lost.signal,
    async release() {
      if (released) return;
      released = true;
      clearInterval(health);
      let broken: Error | undefined;
      if (!lost.signal.aborted) {
        await client
          .query('SELECT pg_advisory_unlock($1, $2)', [options.key.namespace, options.key.id])
          .catch((error: unknown) => {
            broken = error instanceof Error ? error : new Error(String(error));
          });
      }
      // The error listener stays: a destroyed client may still emit, and an unheard 'error' kills the process.
      client.off('end', onEnd);
      // A connection that lost the lock (or failed to unlock) is closed, never handed back still locked.
      client.release(lost.signal.aborted ? new Error('lock connection lost') : broken);
      options.log.info({ lock: options.name }, 'released the projection lock');
    },
  };
}

/** The connection holding a projection's lock, as PostgreSQL shows it. */
export interface LeaderConnection {
  readonly pid: number;
  /** `projector` for the projector process; `null` when this role may not see other sessions' details. */
  readonly applicationName: string | null;
  readonly clientAddress: string | null;
  /** When the leader's lock connection was opened: it has led at least since then. */
  readonly connectedAt: Date | null;
}

/**
 * Who holds the lock `acquireLeadership` takes for `name`, or `null` when no instance leads. Read from
 * `pg_locks`, where a two-key advisory lock shows its keys as unsigned `classid` and `objid`.
 */
export async function findLeader(pool: Pool, name: string): Promise<LeaderConnection | null> {
  const key = advisoryLockKey(name);
  const result = await pool.query<{
    pid: number;
    application_name: string | null;
    client_address: string | null;
    backend_start: Date | null;
  }>(
    `SELECT l.pid, a.application_name, host(a.client_addr) AS client_address, a.backend_start
       FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.classid = ($1::bigint & 4294967295)::oid AND l.objid = ($2::bigint & 4294967295)::oid`,
    [key.namespace, key.id],
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    pid: row.pid,
    applicationName: row.application_name === '' ? null : row.application_name,
    clientAddress: row.client_address,
    connectedAt: row.backend_start,
  };
}
