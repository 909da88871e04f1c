/**
 * `npm run rebuild -w apps/projector`: replays every event into a fresh schema and swaps it in for the
 * live read schema. The API and a running projector keep working throughout. `npm run admin -- rebuild`
 * runs the same, with a progress bar.
 */
import { formatPosition } from '@portal/domain';
import { createLogger, loadConfig } from '@portal/platform';
import { loadProjectorConfig } from './projector-config.js';
import { portalRebuildOptions } from './rebuild/portal-rebuild.js';
import { rebuildReadSchema } from './rebuild/rebuild-read-schema.js';
import { openProjectorResources } from './resources.js';

async function main(): Promise<number> {
  const config = loadConfig();
  const projectorConfig = loadProjectorConfig();
  const log = createLogger({ name: 'projector-rebuild', level: config.LOG_LEVEL });
  const resources = await openProjectorResources(config, projectorConfig, 'projector-rebuild', log);
  try {
    const result = await rebuildReadSchema(portalRebuildOptions(config, projectorConfig, resources, log));
    log.info(
      {
        events: result.events,
        position: formatPosition(result.position),
        durationMs: result.durationMs,
        phasesMs: result.phasesMs,
      },
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
