import { createPool } from '@portal/platform';
import { migrate, startApi } from '../browser/app-processes.js';
import type { LoadResult } from '../browser/closed-loop.js';
import type { BuildOutcome } from '../browser/projector-build.js';
import { seedAndBuild } from '../browser/seed-and-build.js';
import type { SeedOutcome } from '../browser/seed-events.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.js';
import { adminDatabaseUrl } from '../support/services.js';
import { API_SESSION_OPTIONS } from '../../apps/api/src/database-pool.js';
import { measurePairs, medianPair } from './paired-rounds.js';
import { SceneGenerator } from './scene-generator.js';
import { probeClientOf, type StacBenchOptions } from './stac-options.js';
import { byCloudCoverAscending, byTimeDescending, stacViews, tokenOfPage } from './stac-probes.js';

function reused(name: string): ScratchDatabase {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => Promise.resolve() };
}

/** One round's rates (requests/s) and failed requests of each path. */
export interface RoundRates {
  readonly http: number;
  readonly sql: number;
  readonly httpFailed: number;
  readonly sqlFailed: number;
}

export interface StacViewResult {
  readonly view: string;
  /** The round of the median HTTP share (`paired-rounds.ts`; the only round with `--rounds 1`). */
  readonly http: LoadResult;
  readonly sql: LoadResult;
  /** Each round's rates and failures of the two paths, in the order measured. */
  readonly rounds: readonly RoundRates[];
}

export interface StacBenchOutcome {
  /** Absent when the run measured a database it reused. */
  readonly seeding: (SeedOutcome & { readonly types: Readonly<Record<string, number>> }) | null;
  readonly build: BuildOutcome | null;
  readonly projectedItems: number;
  readonly views: readonly StacViewResult[];
}

/**
 * In a database of its own: migrate, seed the event store with a satellite archive, time the projector
 * building the read models, start the API, then measure each STAC query shape over HTTP and through the
 * API's own query code straight to PostgreSQL, one after the other under the same load.
 */
export async function runStacBench(
  options: StacBenchOptions,
  progress: (line: string) => void,
): Promise<StacBenchOutcome> {
  const database = options.reuse === null ? await createScratchDatabase('bench_stac') : reused(options.reuse);
  const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: String(options.poolSize) };
  // The API's session settings: the direct reads are the API's own queries, planned alike (no JIT).
  const pool = createPool({
    connectionString: database.url,
    max: options.poolSize,
    applicationName: 'bench-stac',
    sessionOptions: API_SESSION_OPTIONS,
  });
  // Idle connections die when an interrupted run drops the database; that is expected then.
  pool.on('error', () => undefined);
  try {
    const generator = new SceneGenerator(options);
    let built: Awaited<ReturnType<typeof seedAndBuild>> | null = null;
    if (options.reuse === null) {
      await migrate({ ...env, LOG_LEVEL: 'warn' });
      built = await seedAndBuild({
        pool,
        databaseUrl: database.url,
        env,
        events: generator.events(),
        batchSize: options.batchSize,
        analyzeEveryMs: options.analyzeEveryMs,
        build: options.build,
        progress,
      });
      for (const table of ['portal_objects', 'assets']) await pool.query(`VACUUM (ANALYZE) read.${table}`);
    } else {
      // The history generated again, unwritten, gives the probes the targets of the run that built the
      // database: its collections' ids and the sample of scene names the `ids` search asks for (2 s
      // per 100,000 items, 23 s for a million).
      for (const _event of generator.events());
      progress(`measuring ${options.reuse} as it was built`);
    }
    const counted = await pool.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM read.portal_objects WHERE kind = 'item'`,
    );
    const apis = await startApis({ ...env, LOG_LEVEL: 'info' }, options.apiProcesses);
    const views: StacViewResult[] = [];
    try {
      const [first] = apis;
      if (first === undefined) throw new RangeError('no API process');
      const deepPages = new Map<number, string | null>();
      for (const page of options.deepPages) {
        progress(`following next links to page ${page}`);
        deepPages.set(page, await tokenOfPage(first.baseUrl, byTimeDescending, page));
      }
      const cloudCoverPages = new Map<number, string | null>();
      for (const page of options.deepPages) {
        progress(`following next links to page ${page} by cloud cover`);
        cloudCoverPages.set(page, await tokenOfPage(first.baseUrl, byCloudCoverAscending, page));
      }
      const load = {
        clients: options.clients,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        apps: { api: apis.flatMap(({ app }) => (app.child.pid === undefined ? [] : [app.child.pid])) },
      };
      for (const view of stacViews({
        baseUrls: apis.map(({ baseUrl }) => baseUrl),
        pool,
        targets: generator.targets(),
        deepPages,
        cloudCoverPages,
        client: probeClientOf(options),
      })) {
        if (options.views.length > 0 && !options.views.some((name) => view.name.includes(name))) continue;
        progress(`measuring: ${view.name}`);
        const pairs = await measurePairs(view, load, options.rounds);
        for (const { http, sql } of pairs) {
          progress(
            `  http p95 ${http.latency.p95.toFixed(1)} ms, ${Math.round(http.requestsPerSecond)}/s; sql p95 ${sql.latency.p95.toFixed(1)} ms, ${Math.round(sql.requestsPerSecond)}/s`,
          );
        }
        const rounds = pairs.map(({ http, sql }) => ({
          http: http.requestsPerSecond,
          sql: sql.requestsPerSecond,
          httpFailed: http.failed,
          sqlFailed: sql.failed,
        }));
        views.push({ view: view.name, ...medianPair(pairs), rounds });
      }
    } finally {
      await Promise.all(apis.map(({ app }) => app.stop()));
    }
    return {
      seeding: built && { ...built.seeding, types: Object.fromEntries(generator.counts) },
      build: built?.build ?? null,
      projectedItems: Number(counted.rows[0]?.count ?? 0),
      views,
    };
  } finally {
    await pool.end();
    if (options.keep || options.reuse !== null) progress(`kept database ${database.url}`);
    else await database.drop();
  }
}

/** `count` API processes, each on a port of its own; those started are stopped again if one fails. */
async function startApis(
  env: NodeJS.ProcessEnv,
  count: number,
): Promise<Awaited<ReturnType<typeof startApi>>[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startApi(env)));
  const apis = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(apis.map(({ app }) => app.stop()));
    throw failed.reason;
  }
  return apis;
}
