import type pg from 'pg';
import { buildReadModels, rebuildReadModels, seededHead, type BuildOutcome } from './projector-build.js';
import { seedEvents, type SeedOutcome } from './seed-events.js';
import type { SeedEvent } from './tree-generator.js';

/**
 * Writes a generated history into the event store of the bench's database, then times the projector
 * building the read models from it: the first half of the browser and STAC benches.
 */
export async function seedAndBuild(options: {
  readonly pool: pg.Pool;
  readonly databaseUrl: string;
  /** The apps' settings (DATABASE_URL of the bench's database, the pool size). */
  readonly env: NodeJS.ProcessEnv;
  readonly events: Iterable<SeedEvent>;
  readonly batchSize: number;
  readonly analyzeEveryMs: number;
  /** `projector` (default): the live projector from the start; `rebuild`: an operator's rebuild. */
  readonly build?: 'projector' | 'rebuild';
  readonly progress: (line: string) => void;
}): Promise<{ seeding: SeedOutcome; build: BuildOutcome }> {
  const { pool, progress } = options;
  const client = await pool.connect();
  let seeding: SeedOutcome;
  try {
    seeding = await seedEvents(client, 'eventstore', options.events, (written) => {
      progress(`seeded ${written.toLocaleString('en-US')} events`);
    });
  } finally {
    client.release();
  }
  progress(
    `seeded ${seeding.events.toLocaleString('en-US')} events in ${Math.round(seeding.seconds)} s; projecting`,
  );
  const head = await seededHead(pool, seeding.events);
  const build =
    options.build === 'rebuild'
      ? await rebuildReadModels({ env: options.env, events: seeding.events, progress })
      : await buildReadModels({
          databaseUrl: options.databaseUrl,
          env: { ...options.env, LOG_LEVEL: 'warn' },
          pool,
          head,
          events: seeding.events,
          batchSize: options.batchSize,
          analyzeEveryMs: options.analyzeEveryMs,
          progress,
        });
  progress(`projected in ${Math.round(build.seconds)} s (${Math.round(build.eventsPerSecond)} events/s)`);
  return { seeding, build };
}
