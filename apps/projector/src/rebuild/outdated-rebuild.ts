import { withClient } from '@portal/platform';
import { readSchemaIsCurrent } from '../read-model-versions.js';
import { ensureReadSchema } from '../schemas.js';
import {
  rebuildLockKey,
  rebuildReadSchema,
  RebuildInProgressError,
  RebuildNotNeededError,
  type RebuildOptions,
} from './rebuild-read-schema.js';

export type ReadSchemaAtStart = 'created' | 'current' | 'rebuilt';

/** Waits until the rebuild of `options.schema` another process runs has ended, however it ended. */
async function rebuildEnded(options: RebuildOptions): Promise<void> {
  const key = rebuildLockKey(options.projection, options.schema);
  await withClient(options.pool, async (client) => {
    await client.query('SELECT pg_advisory_lock($1, $2)', [key.namespace, key.id]);
    await client.query('SELECT pg_advisory_unlock($1, $2)', [key.namespace, key.id]);
  });
}

/**
 * At start-up: ensures the read schema, and when it was built at other read model versions than the code's
 * (or before versions were recorded), replaces it by a rebuild (replay into a fresh schema, reader indexes,
 * ANALYZE, catch-up, swap) before the projector follows, since the code's statements expect the code's
 * tables. The API keeps reading the old schema meanwhile. When another instance is already rebuilding it,
 * waits for that rebuild and looks again (and one that finished between the look and the lock is noticed
 * under the lock). A failed rebuild rejects; the live schema is left as it was.
 */
export async function rebuildOutdatedReadSchema(options: RebuildOptions): Promise<ReadSchemaAtStart> {
  const { pool, schema, projection, log } = options;
  for (;;) {
    const state = await ensureReadSchema(pool, { schema, projection });
    if (state !== 'outdated') return state;
    log.warn(
      {
        schema,
        versions: Object.fromEntries(projection.readModels.map((model) => [model.name, model.version])),
      },
      'the read schema was built at other read model versions; rebuilding it before projecting',
    );
    try {
      const result = await rebuildReadSchema({
        ...options,
        stillNeeded: async () => !(await readSchemaIsCurrent(pool, schema, projection)),
      });
      log.info(
        { events: result.events, durationMs: result.durationMs },
        'read schema rebuilt at the current versions',
      );
      return 'rebuilt';
    } catch (error) {
      if (error instanceof RebuildNotNeededError) continue;
      if (!(error instanceof RebuildInProgressError)) throw error;
      log.info({ schema }, 'another instance is rebuilding the read schema; waiting for it');
      await rebuildEnded(options);
    }
  }
}
