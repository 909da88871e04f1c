import { isUndefinedTableError, type Logger, type PoolClient } from '@portal/platform';
import { PORTAL_PROJECTION_CHANNEL as PROJECTION_CHANNEL } from '@portal/read-model-core';
import { dispatchBatch, type DispatchDependencies } from './dispatch-batch.js';

/** The advisory lock that makes one dispatcher active among all worker processes: "WHKS", 1. */
const LOCK_NAMESPACE = 0x57484b53;
const LOCK_ID = 1;

export interface DispatcherSettings {
  /** Ticks this often even without a notification (a lost one, or a standby trying the lock). */
  readonly intervalMs: number;
}

export interface RunningDispatcher {
  /** Runs one pass now (tests); resolves when the pass is done. */
  wake(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Moves new audit rows into delivery jobs. Every worker process runs one, but only the holder of the
 * advisory lock dispatches; the others try the lock on each tick and take over within `intervalMs` of a
 * leader's death (the lock dies with its connection). The leader LISTENs on the projection channel, so
 * a projected batch is dispatched at once; the interval is the safety net.
 */
export function startDispatcher(
  deps: DispatchDependencies & { readonly logger: Logger },
  settings: DispatcherSettings,
): RunningDispatcher {
  const log = deps.logger.child({ component: 'webhook-dispatcher' });
  let leader: PoolClient | null = null;
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  let missingSchemaLogged = false;
  // Read through functions: both change while a pass awaits, which flow analysis cannot see.
  const isClosed = (): boolean => closed;
  const wantsAgain = (): boolean => again;

  const dropLeadership = (error?: Error): void => {
    const client = leader;
    leader = null;
    client?.release(error ?? true);
  };

  const tryLead = async (): Promise<void> => {
    let client: PoolClient | null = null;
    try {
      client = await deps.pool.connect();
      const held = client;
      // From the start: a connection the server ends during the lock's query also emits 'error', and a
      // checked-out client with no listener would end the process.
      const onError = (error: Error): void => {
        log.warn({ err: error }, 'the dispatcher lost its lock connection; another may take over');
        if (leader === held) dropLeadership(error);
      };
      held.on('error', onError);
      const locked = await held.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
        LOCK_NAMESPACE,
        LOCK_ID,
      ]);
      if (locked.rows[0]?.locked !== true) {
        held.off('error', onError);
        held.release();
        return;
      }
      held.on('notification', () => void wake());
      await held.query(`LISTEN ${PROJECTION_CHANNEL}`);
      leader = held;
      log.info('webhook dispatcher active');
    } catch (error) {
      client?.release(true);
      log.warn({ err: error }, 'could not try the webhook dispatcher lock; trying again');
    }
  };

  const pass = async (): Promise<void> => {
    if (leader === null) await tryLead();
    if (leader === null || isClosed()) return;
    try {
      for (;;) {
        const report = await dispatchBatch(deps);
        if (report.jobs > 0) log.debug(report, 'webhook deliveries enqueued');
        if (report.waiting)
          log.warn('the audit read model does not hold the cursor row (a rebuild?); waiting');
        if (report.waiting || report.rows < deps.batchSize || isClosed()) return;
      }
    } catch (error) {
      if (isUndefinedTableError(error)) {
        if (!missingSchemaLogged)
          log.warn('webhook or audit tables are missing (migrate); dispatching waits');
        missingSchemaLogged = true;
        return;
      }
      log.warn({ err: error }, 'webhook dispatch failed; it is tried again');
    }
  };

  /** One pass at a time; a wake during a pass runs one more after it, so no notification is lost. */
  const wake = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass();
      } while (wantsAgain() && !isClosed());
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => void wake(), settings.intervalMs);
  void wake();
  return {
    wake,
    close: async () => {
      closed = true;
      clearInterval(timer);
      await running;
      // Releasing the connection ends the session, which frees the advisory lock for a standby.
      dropLeadership();
    },
  };
}
