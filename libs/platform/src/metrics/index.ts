export { createMetricsRegistry, METRIC_PREFIX } from './registry.js';
export { startMetricsServer, type MetricsServer, type MetricsServerOptions } from './metrics-server.js';
export { observePools } from './pool-metrics.js';
// The apps build their metrics from these, so prom-client stays one dependency of this library.
export { Counter, Gauge, Histogram, Registry } from 'prom-client';
