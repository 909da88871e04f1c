/**
 * `npm run rebuild -w apps/projector`: replays every event into a fresh schema and swaps it in for the
 * live read schema. The API and a running projector keep working throughout.
 */
import { formatPosition } from '@portal/domain';
import { createLogger, loadConfig } from '@portal/platform';
import { PORTAL_PROJECTION_CHANNEL, portalProjection } from './portal-projection.js';
import { loadProjectorConfig } from './projector-config.js';
import { rebuildReadSchema } from './rebuild/rebuild-read-schema.js';
import { openProjectorResources } from './resources.js';

async function main(): Promise<number> {
  const config = loadConfig();
  const projectorConfig = loadProjectorConfig();
  const log = createLogger({ name: 'projector-rebuild', level: config.LOG_LEVEL });
  const resources = await openProjectorResources(config, projectorConfig, 'projector-rebuild', log);
  try {
    const result = await rebuildReadSchema({
      pool: resources.pool,
      store: resources.store,
      projection: portalProjection,
      schema: projectorConfig.PROJECTOR_READ_SCHEMA,
      notifyChannel: PORTAL_PROJECTION_CHANNEL,
      batchSize: config.PROJECTOR_BATCH_SIZE,
      log,
    });
    log.info(
      { events: result.events, position: formatPosition(result.position), durationMs: result.durationMs },
      'rebuild complete',
    );
    return 0;
  } catch (error) {
    log.fatal({ err: error }, 'rebuild failed; the live read schema is untouched');
    return 1;
  } finally {
    await resources.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`projector rebuild: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
