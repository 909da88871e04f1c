import type { Logger, Pool } from '@portal/platform';
import { isAborted } from './abortable-delay.js';
import { acquireLeadership } from './leadership.js';
import { ProjectionRunner, type RunnerOptions } from './runner.js';

export interface ProjectorOptions extends RunnerOptions {
  readonly signal: AbortSignal;
  /** Pool for the leadership connection; defaults to `pool`. */
  readonly lockPool?: Pool;
  readonly standbyRetryMs?: number;
  readonly healthCheckMs?: number;
}

/** The advisory-lock name: one leader per projection and read schema (tests use their own schemas). */
export function leadershipName(projection: string, schema: string): string {
  return `projection:${projection}:${schema}`;
}

/**
 * Leads or waits: acquires the projection's lock (standby meanwhile), projects until `signal` aborts,
 * then releases the lock. Losing the lock's connection stops projecting and goes back to standby.
 * Rejects with `ProjectionHaltedError` on a poison event.
 */
export async function runProjector(options: ProjectorOptions): Promise<void> {
  const { signal, log } = options;
  const runner = new ProjectionRunner(options);
  while (!signal.aborted) {
    const leadership = await acquireLeadership(options.lockPool ?? options.pool, {
      name: leadershipName(options.projection.name, options.schema),
      signal,
      log,
      ...(options.standbyRetryMs === undefined ? {} : { retryMs: options.standbyRetryMs }),
      ...(options.healthCheckMs === undefined ? {} : { healthCheckMs: options.healthCheckMs }),
    });
    if (!leadership) return;
    options.observer?.leading(true);
    try {
      await runner.run(AbortSignal.any([signal, leadership.lost]));
    } finally {
      options.observer?.leading(false);
      await leadership.release();
    }
    if (!isAborted(signal)) logStepDown(log);
  }
}

function logStepDown(log: Logger): void {
  log.warn('no longer the leader; waiting as standby');
}
