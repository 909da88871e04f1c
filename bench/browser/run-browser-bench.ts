import { createPool } from '@portal/platform';
import type pg from 'pg';
import { createScratchDatabase } from '../support/scratch-database.js';
import { migrate, startApi } from './app-processes.js';
import type { BrowserBenchOptions } from './browser-options.js';
import { runClosedLoop, type LoadResult } from './closed-loop.js';
import { childPageCursors, views } from './probes.js';
import type { BuildOutcome } from './projector-build.js';
import { seedAndBuild } from './seed-and-build.js';
import type { SeedOutcome } from './seed-events.js';
import { TreeGenerator } from './tree-generator.js';

export interface ViewResult {
  readonly view: string;
  readonly http: LoadResult;
  readonly sql: LoadResult;
}

export interface BrowserBenchOutcome {
  readonly seeding: SeedOutcome & {
    readonly objects: Readonly<Record<string, number>>;
    readonly types: Readonly<Record<string, number>>;
  };
  readonly build: BuildOutcome;
  readonly projectedObjects: number;
  readonly views: readonly ViewResult[];
}

/** Tables of the read schema after a bulk load, settled as autovacuum would leave them. */
async function settle(pool: pg.Pool): Promise<void> {
  for (const table of ['portal_objects', 'assets', 'uploads', 'inventory_totals']) {
    await pool.query(`VACUUM (ANALYZE) read.${table}`);
  }
}

async function countObjects(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ count: string }>(
    'SELECT count(*)::text AS count FROM read.portal_objects',
  );
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * In a database of its own: migrate, seed the event store with the generated portal, time the projector
 * building the read models, start the API, then measure each view over HTTP and the same SQL sent by the
 * API's query code straight through pg, one after the other under the same load.
 */
export async function runBrowserBench(
  options: BrowserBenchOptions,
  progress: (line: string) => void,
): Promise<BrowserBenchOutcome> {
  const database = await createScratchDatabase('bench_browser');
  const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: String(options.poolSize) };
  const pool = createPool({ connectionString: database.url, max: 2, applicationName: 'bench-browser' });
  // Idle connections die when an interrupted run drops the database; that is expected then.
  pool.on('error', () => undefined);
  try {
    await migrate({ ...env, LOG_LEVEL: 'warn' });
    const generator = new TreeGenerator({
      objects: options.objects,
      wideChildren: options.wideChildren,
      itemShare: options.itemShare,
      seed: options.seed,
    });
    const { seeding, build } = await seedAndBuild({
      pool,
      databaseUrl: database.url,
      env,
      events: generator.events(),
      batchSize: options.batchSize,
      analyzeEveryMs: options.analyzeEveryMs,
      progress,
    });
    await settle(pool);
    const projectedObjects = await countObjects(pool);
    const results = await measureViews(options, database.url, env, generator, progress);
    return {
      seeding: {
        ...seeding,
        objects: Object.fromEntries(generator.objectsByKind),
        types: Object.fromEntries(generator.counts),
      },
      build,
      projectedObjects,
      views: results,
    };
  } finally {
    await pool.end();
    if (options.keep) progress(`kept database ${database.url}`);
    else await database.drop();
  }
}

async function measureViews(
  options: BrowserBenchOptions,
  databaseUrl: string,
  env: NodeJS.ProcessEnv,
  generator: TreeGenerator,
  progress: (line: string) => void,
): Promise<ViewResult[]> {
  // The API logs one line per request at info, as in production.
  const apis = await Promise.all(
    Array.from({ length: options.apiProcesses }, () => startApi({ ...env, LOG_LEVEL: 'info' })),
  );
  const baseUrls = apis.map((api) => api.baseUrl);
  const baseUrl = baseUrls[0] ?? '';
  const sqlPool = createPool({
    connectionString: databaseUrl,
    max: options.poolSize,
    applicationName: 'bench-sql',
  });
  try {
    const targets = generator.targets();
    const childCursors = await childPageCursors(baseUrl, targets.wideNodeId);
    const apiPids = apis.flatMap(({ app }) => (app.child.pid === undefined ? [] : [app.child.pid]));
    const load = {
      clients: options.clients,
      warmupMs: options.warmupMs,
      durationMs: options.durationMs,
      apps: { api: apiPids },
    };
    const results: ViewResult[] = [];
    for (const view of views({
      baseUrls,
      pool: sqlPool,
      targets,
      childCursors,
      wideChildren: options.wideChildren,
    })) {
      progress(`measuring: ${view.name}`);
      const http = await runClosedLoop(view.http, load);
      const sql = await runClosedLoop(view.sql, load);
      progress(
        `  http p50 ${http.latency.p50.toFixed(2)} ms, ${Math.round(http.requestsPerSecond)}/s; sql p50 ${sql.latency.p50.toFixed(2)} ms, ${Math.round(sql.requestsPerSecond)}/s`,
      );
      results.push({ view: view.name, http, sql });
    }
    return results;
  } finally {
    await sqlPool.end();
    await Promise.all(apis.map((api) => api.app.stop()));
  }
}
