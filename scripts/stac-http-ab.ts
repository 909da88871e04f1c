/**
 * Two checkouts' APIs side by side on one STAC bench database (kept by `bench/stac.ts --keep`), measured
 * in alternating bursts: the API's CPU per request and the rate of each, for a collection's items and
 * time-sorted pages, over the same minutes of a shared machine's load (a before/after pair measured one
 * after the other moved with the neighbours more than with the change).
 * Usage: npx tsx scripts/stac-http-ab.ts --a <checkout> --b <checkout> --database bench_stac_<8 hex>
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createPool } from '@portal/platform';
import { runClosedLoop, type Probe } from '../bench/browser/closed-loop.js';
import { isDocumentOf } from '../bench/stac/document-check.js';
import { getText } from '../bench/support/http-get.js';
import { readOptions, positiveInt, positiveNumber } from '../bench/support/options.js';
import { adminDatabaseUrl, useTestServiceDefaults } from '../bench/support/services.js';
import { printJsonLine, printTable } from '../bench/support/table.js';

const raw = readOptions('npx tsx scripts/stac-http-ab.ts [options]', {
  a: { env: 'BENCH_AB_A', default: '', help: 'checkout A (its apps/api is started)' },
  b: { env: 'BENCH_AB_B', default: '', help: 'checkout B' },
  database: { env: 'BENCH_AB_DATABASE', default: '', help: 'a database kept by bench/stac.ts --keep' },
  rounds: { env: 'BENCH_AB_ROUNDS', default: '4', help: 'rounds; each measures every shape on A and B' },
  'burst-s': { env: 'BENCH_AB_BURST_S', default: '3', help: 'measured seconds per shape, API and round' },
  clients: { env: 'BENCH_AB_CLIENTS', default: '8', help: 'concurrent clients' },
  shapes: {
    env: 'BENCH_AB_SHAPES',
    default: '',
    help: 'only the shapes whose name holds one of these, comma-separated; all when empty',
  },
});
useTestServiceDefaults();
const url = new URL(adminDatabaseUrl());
url.pathname = `/${raw.database}`;
const rounds = positiveInt('rounds', raw.rounds);
const burstMs = positiveNumber('burst-s', raw['burst-s']) * 1000;
const clients = positiveInt('clients', raw.clients);

function startApi(root: string): Promise<{ pid: number; baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url.toString(), PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    // Every line read and parsed, as the stac bench and a log shipper do.
    createInterface({ input: child.stdout }).on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === 'listening' && entry.port !== undefined && child.pid !== undefined) {
        const pid = child.pid;
        resolve({ pid, baseUrl: `http://127.0.0.1:${entry.port}`, stop: () => child.kill('SIGTERM') });
      }
    });
    child.once('exit', (code) => {
      reject(new Error(`api in ${root} exited with ${String(code)}`));
    });
  });
}

const pool = createPool({ connectionString: url.toString(), max: 2, applicationName: 'bench-ab' });
const collections = (
  await pool.query<{ id: string }>(
    `SELECT id FROM read.portal_objects WHERE kind = 'collection' AND deleted_at IS NULL ORDER BY id`,
  )
).rows.map((row) => row.id);
await pool.end();

const shapes: { name: string; path: (sequence: number) => string }[] = [
  {
    name: "a collection's items",
    path: (sequence) =>
      `/api/v1/stac/collections/${collections[sequence % collections.length] ?? ''}/items?limit=100`,
  },
  { name: 'sortby -datetime, page 1', path: () => '/api/v1/stac/search?sortby=-datetime&limit=100' },
  {
    name: 'sortby +eo:cloud_cover, page 1',
    path: () => '/api/v1/stac/search?sortby=%2Bproperties.eo%3Acloud_cover&limit=100',
  },
];

const only = raw.shapes
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
const measured = shapes.filter(
  (shape) => only.length === 0 || only.some((name) => shape.name.includes(name)),
);

/**
 * Sent through the bench's lean client and parsed whole (unlike bench/stac.ts, which by default only
 * checks each body's opening and end): both checkouts pay the same client work, and the comparison is of
 * their APIs' CPU per request, not of HTTP against direct reads.
 */
function probe(baseUrl: string, path: (sequence: number) => string): Probe {
  return async (sequence) => {
    const answer = await getText(`${baseUrl}${path(sequence)}`, {
      headers: { accept: 'application/geo+json, application/json' },
    });
    return answer.status === 200 && isDocumentOf(answer.parts, 'FeatureCollection', 'json');
  };
}

const apis = { A: await startApi(raw.a), B: await startApi(raw.b) };
const totals = new Map<string, { requests: number; apiMs: number; ms: number }>();
try {
  for (let round = 0; round < rounds; round += 1) {
    // A then B in even rounds, B then A in odd ones: neither always follows the other.
    const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
    for (const shape of measured) {
      for (const which of order) {
        const api = apis[which];
        const result = await runClosedLoop(probe(api.baseUrl, shape.path), {
          clients,
          warmupMs: 500,
          durationMs: burstMs,
          apps: { api: [api.pid] },
        });
        process.stderr.write(
          `  ${which} ${shape.name}: ${Math.round(result.requestsPerSecond)}/s, p50 ${result.latency.p50.toFixed(1)} ms, api ${(result.cpuMsPerRequest?.api ?? 0).toFixed(2)} ms\n`,
        );
        const key = `${shape.name}\t${which}`;
        const total = totals.get(key) ?? { requests: 0, apiMs: 0, ms: 0 };
        const requests = result.latency.count;
        total.requests += requests;
        total.apiMs += (result.cpuMsPerRequest?.api ?? 0) * requests;
        total.ms += (requests / result.requestsPerSecond) * 1000;
        totals.set(key, total);
      }
    }
    process.stderr.write(`round ${round + 1} of ${rounds} done\n`);
  }
} finally {
  apis.A.stop();
  apis.B.stop();
}
const rows = measured.map((shape) => {
  const a = totals.get(`${shape.name}\tA`);
  const b = totals.get(`${shape.name}\tB`);
  const rate = (t: typeof a) => (t ? (1000 * t.requests) / t.ms : Number.NaN);
  const cpu = (t: typeof a) => (t ? t.apiMs / t.requests : Number.NaN);
  return [shape.name, cpu(a), cpu(b), rate(a), rate(b)];
});
printTable(
  `API CPU per request (ms) and requests/s, A = ${raw.a}, B = ${raw.b}, ${rounds} alternating rounds of ${burstMs / 1000} s`,
  ['shape', 'A api cpu', 'B api cpu', 'A req/s', 'B req/s'],
  rows,
);
printJsonLine('stac-http-ab', { options: raw, rows });
