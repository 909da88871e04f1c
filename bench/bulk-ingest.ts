/**
 * Bulk ingest over HTTP: `POST /` batches of 100 creates and NDJSON bulk requests
 * (`POST /api/v1/portal/bulk`), both counted until projected, beside the same run's 16-connection
 * single-row INSERT ceiling on the same PostgreSQL server.
 * Usage: npx tsx bench/bulk-ingest.ts [--batches 200] [--clients 16] [--lines 40000] [--bulk-requests 2]
 */
import { pipelineKeyAt } from '../test/support/pipeline-key.js';
import { runBatches, runNdjson, type RateResult, type Target } from './bulk/run-bulk-ingest.js';
import { runPgCeiling } from './pg-ceiling/run-pg-ceiling.js';
import { startBenchStack } from './support/bench-stack.js';
import { nearestCeiling } from './support/comparison.js';
import { positiveInt, positiveIntList, readOptions } from './support/options.js';
import { ProjectionArrivals } from './support/projection-arrivals.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine, printTable } from './support/table.js';

const raw = readOptions('npx tsx bench/bulk-ingest.ts [options]', {
  batches: { env: 'BENCH_BATCHES', default: '200', help: '`POST /` batches of 100 creates' },
  clients: { env: 'BENCH_CLIENTS', default: '16', help: 'concurrent clients sending batches' },
  lines: { env: 'BENCH_LINES', default: '40000', help: 'NDJSON lines in all' },
  'bulk-requests': { env: 'BENCH_BULK_REQUESTS', default: '2', help: 'concurrent NDJSON requests' },
  parents: { env: 'BENCH_PARENTS', default: '8', help: 'catalogs the collections go under' },
  'ceiling-inserts': { env: 'BENCH_CEILING_INSERTS', default: '20000', help: 'INSERTs per ceiling run' },
  'ceiling-clients': { env: 'BENCH_CEILING_CLIENTS', default: '16', help: 'ceiling connections' },
});
const options = {
  batches: positiveInt('batches', raw.batches),
  clients: positiveInt('clients', raw.clients),
  lines: positiveInt('lines', raw.lines),
  bulkRequests: positiveInt('bulk-requests', raw['bulk-requests']),
  parents: positiveInt('parents', raw.parents),
};
const ceilingOptions = {
  inserts: positiveInt('ceiling-inserts', raw['ceiling-inserts']),
  clients: positiveIntList('ceiling-clients', raw['ceiling-clients']),
};
useTestServiceDefaults();
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

log('starting the stack');
const stack = await startBenchStack({ LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' });
try {
  const arrivals = await ProjectionArrivals.listen(stack.databaseUrl);
  try {
    const credential = await pipelineKeyAt(stack.baseUrl);
    const parents = await fetch(`${stack.baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...credential },
      body: JSON.stringify({
        commands: Array.from({ length: options.parents }, (_, index) => ({
          type: 'createCatalog',
          body: { title: `Bulk parent ${Date.now()} ${index}`, description: 'Parent', links: [] },
        })),
      }),
    });
    const parentBody = (await parents.json()) as { results: { body: { portalItemId?: string } }[] };
    const parentIds = parentBody.results.flatMap((result) => result.body.portalItemId ?? []);
    const target = (tag: string): Target => ({
      baseUrl: stack.baseUrl,
      arrivals,
      credential,
      parentIds,
      tag: `${tag} ${Date.now()}`,
    });
    log(`POST /: ${options.batches} batches of 100, ${options.clients} clients`);
    const batch = await runBatches(target('batch'), options);
    log(`NDJSON: ${options.lines} lines in ${options.bulkRequests} requests`);
    const ndjson = await runNdjson(target('ndjson'), options);
    log(`ceiling: ${ceilingOptions.inserts} INSERTs, ${ceilingOptions.clients.join(',')} connections`);
    const ceiling = await runPgCeiling(stack.databaseUrl, ceilingOptions);
    const nearest = nearestCeiling(ceiling, 16);
    const percent = (run: RateResult) =>
      nearest ? (100 * run.projectedPerSecond) / nearest.insertsPerSecond : null;
    const runs = [
      { path: 'POST / (100 per batch)', ...batch, percentOfCeiling: percent(batch) },
      { path: 'NDJSON bulk', ...ndjson, percentOfCeiling: percent(ndjson) },
    ];
    printTable(
      `Bulk ingest, creates/s until projected, beside ${nearest?.clients ?? '-'}-connection INSERTs/s (${Math.round(nearest?.insertsPerSecond ?? 0)})`,
      ['path', 'creates', 'failed', 'seconds', 'projected/s', '% of ceiling', 'cpu busy', 'bench cpu'],
      runs.map((run) => [
        run.path,
        run.creates,
        run.failed,
        run.seconds,
        run.projectedPerSecond,
        run.percentOfCeiling === null ? '-' : `${run.percentOfCeiling.toFixed(1)}%`,
        `${Math.round(run.cpu.machineBusyPercent)}%`,
        `${Math.round(run.cpu.benchProcessPercent)}%`,
      ]),
    );
    printJsonLine('bulk-ingest', {
      options: { ...options, ceiling: ceilingOptions },
      ceiling,
      batch,
      ndjson,
      runs,
    });
  } finally {
    await arrivals.close();
  }
} finally {
  await stack.stop();
}
