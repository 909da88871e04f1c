/**
 * The projector process: leads (or waits as standby) and projects until SIGTERM/SIGINT, then finishes
 * its batch, releases the lock and exits 0. A poison event exits 1 after it is dead-lettered.
 */
import {
  createLogger,
  createMetricsRegistry,
  loadConfig,
  observePools,
  startMetricsServer,
  startTracing,
} from '@portal/platform';
import { projectorMetrics } from './metrics/projector-metrics.js';
import { ProjectionHaltedError } from './runner.js';
import { openProjectorResources } from './resources.js';
import { runProjector } from './run-projector.js';
import { PORTAL_PROJECTION_CHANNEL, portalProjection } from './portal-projection.js';
import { ensureOperationsSchema } from './schemas.js';
import { loadProjectorConfig } from './projector-config.js';
import { backfillAuditTrail } from './rebuild/audit-backfill.js';
import { rebuildOutdatedReadSchema } from './rebuild/outdated-rebuild.js';
import { portalRebuildOptions } from './rebuild/portal-rebuild.js';

async function main(): Promise<number> {
  const config = loadConfig();
  const projectorConfig = loadProjectorConfig();
  const log = createLogger({ name: 'projector', level: config.LOG_LEVEL });
  const tracing = await startTracing({ serviceName: 'portal-projector', logger: log });
  const shutdown = new AbortController();
  const stop = (signal: NodeJS.Signals): void => {
    if (shutdown.signal.aborted) {
      log.warn({ signal }, 'second signal: exiting without finishing the batch');
      process.exit(1);
    }
    log.info({ signal }, 'stopping after the current batch');
    shutdown.abort();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const resources = await openProjectorResources(config, projectorConfig, 'projector', log);
  const metrics = createMetricsRegistry();
  observePools(metrics, { main: resources.pool });
  const observer = projectorMetrics(
    metrics,
    {
      pool: resources.pool,
      store: resources.store,
      projection: portalProjection.name,
      schema: projectorConfig.PROJECTOR_READ_SCHEMA,
      operationsSchema: projectorConfig.PROJECTOR_OPERATIONS_SCHEMA,
    },
    log,
  );
  const metricsServer = await startMetricsServer({
    registry: metrics,
    host: config.METRICS_HOST,
    port: projectorConfig.PROJECTOR_METRICS_PORT,
    logger: log,
  });
  // Settles (never rejects) once a read schema from before the audit read model has been rebuilt.
  let backfill: Promise<unknown> = Promise.resolve();
  try {
    const schema = projectorConfig.PROJECTOR_READ_SCHEMA;
    // First: a rebuild at start passes over the events the operator skipped, which are recorded there.
    await ensureOperationsSchema(resources.pool, { schema: projectorConfig.PROJECTOR_OPERATIONS_SCHEMA });
    await rebuildOutdatedReadSchema(portalRebuildOptions(config, projectorConfig, resources, log));
    log.info({ schema, batchSize: config.PROJECTOR_BATCH_SIZE }, 'projector starting');
    // Beside the live projector, not before it: a rebuild swaps in under a running projector.
    backfill = backfillAuditTrail({
      pool: resources.pool,
      store: resources.store,
      projection: portalProjection,
      schema,
      operationsSchema: projectorConfig.PROJECTOR_OPERATIONS_SCHEMA,
      notifyChannel: PORTAL_PROJECTION_CHANNEL,
      batchSize: config.PROJECTOR_BATCH_SIZE,
      log,
    });
    await runProjector({
      pool: resources.pool,
      store: resources.store,
      projection: portalProjection,
      schema,
      operationsSchema: projectorConfig.PROJECTOR_OPERATIONS_SCHEMA,
      notifyChannel: PORTAL_PROJECTION_CHANNEL,
      batchSize: config.PROJECTOR_BATCH_SIZE,
      retryDelaysMs: projectorConfig.PROJECTOR_RETRY_DELAYS_MS,
      mergePendingListsEvery: projectorConfig.PROJECTOR_MERGE_PENDING_LISTS_EVERY,
      log,
      observer,
      signal: shutdown.signal,
    });
    log.info('projector stopped');
    return 0;
  } catch (error) {
    // The runner already logged the poison event in one line; anything else is logged here.
    if (!(error instanceof ProjectionHaltedError)) log.fatal({ err: error }, 'projector failed');
    return 1;
  } finally {
    // A rebuild cut short leaves its fresh schema behind and starts over next time: let it finish.
    await backfill;
    await metricsServer?.close();
    await resources.close();
    await tracing.shutdown();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`projector: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
