import { collectDefaultMetrics, Registry } from 'prom-client';

/** Every metric this service defines starts with this, so dashboards and rules find ours at a glance. */
export const METRIC_PREFIX = 'portal_';

/**
 * One registry per process, with Node's process metrics (CPU, memory, event-loop lag, GC, handles).
 * A registry of its own rather than prom-client's global one: tests may build several apps in one
 * process, and nothing registered by a library behind our back ends up in the exposition.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
