import { Counter, Histogram, type Registry } from '@portal/platform';

/**
 * How a wait for the projection ended: `already` (projected before the request asked), `projected`
 * (it came within the wait), `timed_out` (it did not: a command answers 202, a read with
 * `X-Min-Position` 503).
 */
export type ProjectionWaitOutcome = 'already' | 'projected' | 'timed_out';

export interface ProjectionWaitObserver {
  waited(outcome: ProjectionWaitOutcome, seconds: number): void;
}

export const UNOBSERVED_WAITS: ProjectionWaitObserver = { waited: () => undefined };

export function projectionWaitMetrics(registry: Registry): ProjectionWaitObserver {
  const waits = new Counter({
    name: 'portal_projection_waits_total',
    help: 'Requests that waited for the projection, by outcome: already, projected (201 for a create), timed_out (202 for a create).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'portal_projection_wait_duration_seconds',
    help: 'How long a request waited for its position to be projected (waits that had to wait).',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const counters = {
    already: waits.labels('already'),
    projected: waits.labels('projected'),
    timed_out: waits.labels('timed_out'),
  };
  for (const counter of Object.values(counters)) counter.inc(0);
  return {
    waited(outcome, seconds) {
      counters[outcome].inc();
      if (outcome !== 'already') duration.labels(outcome).observe(seconds);
    },
  };
}
