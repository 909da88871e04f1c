/**
 * Every bench run at a tiny size, as a child process the way a reader runs it: it must exit 0 and print
 * its one JSON line with the figures in their places. Nothing here looks at how fast anything was
 * (benches print that); what is checked are counts the bench's own options fix, so a bench that stops
 * working, or silently measures something else, fails the suite. Sizes and what each smoke costs:
 * bench/README.md, "Smoke runs".
 */
import { describe, expect, it } from 'vitest';
import { benchResult, runBenchScript } from './support/bench-process.js';
import { dropKeptDatabase } from './support/scratch-database.js';

/** One bench's own limit: past it, it is interrupted (and cleans up). */
const BENCH_TIMEOUT_MS = 120_000;
/**
 * Two benches at a time: most of a smoke run is waiting (app start-up, fixed measuring windows), and
 * more at once would only queue for this machine's few cores.
 */
const AT_ONCE = 2;
const rate = expect.any(Number) as unknown;
const latency = { count: expect.any(Number) as unknown, p50: rate, p99: rate };

interface Smoke {
  readonly script: string;
  readonly args: readonly string[];
  /** The name in the JSON line. */
  readonly bench: string;
  readonly expected: Record<string, unknown>;
  /** Figures of the result that must agree with each other: [what, actual, expected]. */
  readonly agreeing?: (result: never) => readonly (readonly [string, unknown, unknown])[];
}

interface ReplayShape {
  readonly seeding: { readonly objects: number };
  readonly runs: readonly { readonly projectedObjects: number }[];
}

/** A replay rebuilt every object its history created (deleted ones keep their row). */
const replayAgrees = (replay: ReplayShape) =>
  replay.runs.map(
    (run) => ['rows projected = objects seeded', run.projectedObjects, replay.seeding.objects] as const,
  );

const ceilingOf = (clients: number, inserts: number) => ({ clients, inserts, insertsPerSecond: rate });
const replayRun = (batchSize: number, events: number, workerNodeVariant = '') => ({
  batchSize,
  workerNodeVariant,
  // What the worker itself ran with.
  nodeFlags: expect.arrayContaining(workerNodeVariant === '' ? [] : [workerNodeVariant]) as unknown,
  events,
  eventsPerSecond: rate,
  peakRssMiB: rate,
});

const smokes: readonly Smoke[] = [
  {
    script: 'bench/run-all.ts',
    args: [
      ...['--creates', '20', '--clients', '2', '--warmup', '4', '--parents', '2'],
      ...['--ceiling-inserts', '100', '--ceiling-clients', '1,2'],
      ...['--replay', '--events', '800', '--batch-sizes', '500', '--segment', '400'],
    ],
    bench: 'run-all',
    expected: {
      ingest: ['projected', 'async'].map((mode) => ({
        mode,
        clients: 2,
        creates: 20,
        failed: 0,
        createsPerSecond: rate,
        httpMs: latency,
      })),
      ceiling: [ceilingOf(1, 100), ceilingOf(2, 100)],
      comparison: ['projected', 'async'].map((mode) => ({ mode, ceilingClients: 2, percentOfCeiling: rate })),
      replay: { seeding: { events: 800 }, runs: [replayRun(500, 800)] },
    },
    agreeing: (result: { replay: ReplayShape }) => replayAgrees(result.replay),
  },
  {
    script: 'bench/ingest.ts',
    args: [
      ...['--creates', '20', '--clients', '2', '--modes', 'async', '--warmup', '0', '--parents', '1'],
      ...['--rates', '40'],
    ],
    bench: 'ingest',
    expected: {
      runs: [
        {
          mode: 'async',
          clients: 2,
          creates: 20,
          failed: 0,
          createsPerSecond: rate,
          breakdown: { cores: rate, cpuSeconds: { api: rate, projector: rate, postgres: rate, other: rate } },
        },
        { mode: 'async', rate: 40, creates: 20, failed: 0, skipped: 0, appendToProjectedMs: latency },
      ],
    },
    agreeing: (result: { runs: readonly { breakdown: { cpuSeconds: { api: number } } }[] }) =>
      result.runs.map((run) => [
        'the API process was found and used CPU',
        run.breakdown.cpuSeconds.api > 0,
        true,
      ]),
  },
  {
    script: 'bench/bulk-ingest.ts',
    args: [
      ...['--batches', '2', '--clients', '2', '--lines', '300', '--bulk-requests', '2', '--parents', '2'],
      ...['--ceiling-inserts', '100', '--ceiling-clients', '2'],
    ],
    bench: 'bulk-ingest',
    expected: {
      ceiling: [ceilingOf(2, 100)],
      batch: { creates: 200, failed: 0, projectedPerSecond: rate },
      ndjson: { creates: 300, failed: 0, projectedPerSecond: rate },
    },
  },
  {
    script: 'bench/pg-ceiling.ts',
    args: ['--ceiling-inserts', '100', '--ceiling-clients', '1,2'],
    bench: 'pg-ceiling',
    expected: { runs: [ceilingOf(1, 100), ceilingOf(2, 100)] },
  },
  {
    script: 'bench/replay.ts',
    args: [
      ...['--events', '800', '--batch-sizes', '300', '--segment', '400'],
      ...['--replay-modes', 'projector,rebuild-lean,copy'],
      // Passed to each worker, and named in each run (a value starting with a dash takes `=`).
      '--worker-node-args=--max-semi-space-size=32',
    ],
    bench: 'replay',
    expected: {
      seeding: { events: 800 },
      runs: [
        {
          mode: 'projector',
          ...replayRun(300, 800, '--max-semi-space-size=32'),
          segmentRates: [rate, rate],
          phaseSeconds: null,
          readerStatementsMs: null,
        },
        {
          mode: 'rebuild-lean',
          ...replayRun(300, 800, '--max-semi-space-size=32'),
          segmentRates: [rate, rate],
          phaseSeconds: { replay: rate, readerDdl: rate, analyze: rate, swap: rate },
          readerStatementsMs: expect.arrayContaining([
            { label: 'index audit_events_org', ms: rate },
          ]) as unknown,
        },
        {
          mode: 'copy',
          ...replayRun(300, 800, '--max-semi-space-size=32'),
          segmentRates: [rate, rate],
          phaseSeconds: { replay: rate, readerDdl: rate, analyze: rate, swap: rate },
          foldSplit: {
            foldCpuSeconds: rate,
            writeCpuSeconds: rate,
            foldGc: { minor: rate, major: rate },
            writeGc: { minor: rate, major: rate },
          },
        },
      ],
    },
    agreeing: replayAgrees,
  },
  {
    script: 'bench/replay-steps.ts',
    args: ['--events', '300', '--batch-size', '100'],
    bench: 'replay-steps',
    expected: { options: { events: 300, batchSize: 100, floor: true }, events: 300, floor: { events: 300 } },
    // The floor writes again what the replay wrote: every object and audit row, as many updates of
    // each kind, a commit per batch.
    agreeing: (result: {
      batches: number;
      tableWrites: readonly { table: string; inserts: number; updates: number; hotUpdates: number }[];
      floor: {
        kinds: readonly { kind: string; rows: number }[];
        objectUpdates: { updates: number };
      };
    }) => {
      const objects = result.tableWrites.find(({ table }) => table === 'portal_objects');
      const audit = result.tableWrites.find(({ table }) => table === 'audit_events');
      const floor = (kind: string) => result.floor.kinds.find((each) => each.kind === kind)?.rows ?? -1;
      const indexed = floor('objects updated (an indexed column)');
      const childCounts = floor('objects updated (a child count)');
      return [
        ['the replay inserted objects', (objects?.inserts ?? 0) > 0, true],
        ['objects inserted again = objects the replay inserted', floor('objects inserted'), objects?.inserts],
        [
          'audit rows inserted again = audit rows of the replay',
          floor('audit rows inserted'),
          audit?.inserts,
        ],
        [
          'indexed-column updates = the replay updates that were not heap-only',
          indexed,
          (objects?.updates ?? 0) - (objects?.hotUpdates ?? 0),
        ],
        ['child counts = the replay heap-only updates', childCounts, objects?.hotUpdates],
        ['the floor statistics count its updates', result.floor.objectUpdates.updates, indexed + childCounts],
        ['commits = the replay batches', floor('commits'), result.batches],
        ['batches of --events 300 --batch-size 100', result.batches, 3],
      ] as const;
    },
  },
  {
    script: 'bench/leaf-moves.ts',
    args: ['--catalogs', '2', '--moves', '5', '--rounds', '1'],
    bench: 'leaf-moves',
    expected: {
      options: { catalogs: 2, moves: 5, rounds: 1 },
      rows: 1042,
      msPerMove: { set: rate, oneByOne: rate, ceiling: rate },
      plans: [{ mode: 'generic' }, { mode: 'custom' }],
    },
  },
  {
    script: 'bench/run-sets.ts',
    args: ['--objects', '600', '--events', '4', '--rounds', '1'],
    bench: 'run-sets',
    expected: {
      options: { objects: 600, events: 4, rounds: 1 },
      // The rows the tree of --objects 600 makes: catalogs, collections and their items.
      rows: 638,
      measured: {
        'renames one by one': [rate],
        'renames as a set': [rate],
        'deletes one by one': [rate],
        'deletes as a set': [rate],
        'one-row UPDATE by key': [rate],
      },
    },
  },
  {
    script: 'bench/skewed-subtrees.ts',
    args: ['--children', '10000', '--events', '3'],
    bench: 'skewed-subtrees',
    expected: { options: { children: 10000, wide: 3, events: 3 }, sequentialScans: 0 },
  },
  {
    script: 'bench/structure.ts',
    args: [
      ...['--operations', '8', '--clients', '2', '--warmup', '0'],
      ...['--ceiling-inserts', '100', '--ceiling-clients', '1,2'],
    ],
    bench: 'structure',
    expected: {
      runs: ['move', 'delete'].map((operation) => ({
        operation,
        clients: 2,
        operations: 8,
        failed: 0,
        perSecond: rate,
      })),
      comparison: ['move', 'delete'].map((operation) => ({ operation, ceilingClients: 2 })),
    },
  },
  {
    script: 'bench/uploads.ts',
    args: ['--size-mib', '5', '--part-mib', '5', '--items', '3', '--completions', '2'],
    bench: 'uploads',
    expected: {
      result: {
        ceiling: { objects: 1, put: { bytes: 5 * 1024 * 1024 } },
        service: { parts: 1, assetSize: 5 * 1024 * 1024, storedSize: 5 * 1024 * 1024 },
        smallItems: { items: 3, failed: 0, completeToReadyMs: latency },
      },
    },
  },
  ...(['batch', 'simulated'] as const).map((changes) => ({
    script: 'bench/events-feed.ts',
    args: [
      ...['--changes', changes, '--clients', '4', '--rate', '20', '--seconds', '1', '--warmup', '0'],
      ...['--objects', '16', '--max-in-flight', '8'],
    ],
    bench: 'events-feed',
    expected: {
      options: { changes, clients: 4 },
      clientsConnected: 4,
      failedRequests: 0,
      changesMade: expect.any(Number) as unknown,
      // A busy machine may project nothing within the measured second: no percentiles then (null).
      deliveryMs: { count: expect.any(Number) as unknown },
      apiMemory: { peak: { rssMiB: rate } },
    },
  })),
  {
    script: 'bench/browser/main.ts',
    args: [
      ...['--objects', '800', '--wide-children', '50', '--clients', '2'],
      ...['--warmup-s', '0', '--duration-s', '0.25'],
    ],
    bench: 'browser',
    expected: {
      // Every seeded object in the read model.
      projectedObjects: 800,
      build: { eventsPerSecond: rate },
      views: expect.arrayContaining([
        expect.objectContaining({
          view: expect.any(String) as unknown,
          http: expect.objectContaining({
            cpuMsPerRequest: expect.objectContaining({ api: rate }) as unknown,
          }) as unknown,
        }),
      ]) as unknown,
    },
  },
  {
    script: 'bench/stac.ts',
    args: [
      ...['--items', '300', '--collections', '3', '--clients', '2', '--deep-pages', '1,2'],
      // The browser bench builds with the live projector; this one through a rebuild.
      ...['--warmup-s', '0', '--duration-s', '0.25', '--build', 'rebuild'],
    ],
    bench: 'stac',
    expected: {
      projectedItems: 300,
      build: { eventsPerSecond: rate },
      views: expect.arrayContaining([
        expect.objectContaining({
          view: 'sortby -datetime, page 2',
          http: expect.objectContaining({ failed: 0 }) as unknown,
          sql: expect.objectContaining({ failed: 0 }) as unknown,
        }),
        // The HTTP probe checks each body's document type (a FeatureCollection above, this one too).
        expect.objectContaining({
          view: "aggregation by month, one collection's items",
          http: expect.objectContaining({ failed: 0 }) as unknown,
        }),
        // Scenes by the names their generator gave them (the seeded ItemUploadStarted's stacId).
        expect.objectContaining({
          view: 'ids: 10 scenes by STAC id',
          http: expect.objectContaining({ failed: 0 }) as unknown,
          sql: expect.objectContaining({ failed: 0 }) as unknown,
        }),
      ]) as unknown,
    },
  },
  {
    script: 'bench/web-explorer.ts',
    args: ['--children', '250', '--frames', '20'],
    bench: 'web-explorer',
    // The first page of the wide node (100 rows), one more fetched while scrolling to the end (the
    // other 150), and a time between each two of the 20 frames.
    expected: {
      options: { children: 250, frames: 20 },
      loaded: 250,
      pages: { count: 1 },
      frames: { count: 19 },
    },
  },
  {
    script: 'bench/stac-page-cost.ts',
    args: ['--items', '10', '--rounds', '5'],
    bench: 'stac-page-cost',
    expected: {
      options: { items: 10, rounds: 5 },
      costs: { build: rate, stringify: rate, buffer: rate, etag: rate },
    },
  },
  {
    script: 'bench/api-cpu.ts',
    args: [
      ...['--phases', 'create-async,patch,children,static', '--clients', '2', '--children', '20'],
      ...['--duration-s', '0.25', '--warmup-s', '0', '--profile'],
    ],
    bench: 'api-cpu',
    expected: {
      phases: ['create-async', 'patch', 'children', 'static'].map((phase) => ({
        phase,
        failed: 0,
        apiCpuMsPerRequest: rate,
        profile: { busyMilliseconds: rate },
      })),
    },
  },
  {
    script: 'bench/waiters.ts',
    args: ['--waiters', '1,50', '--steps', '10', '--interval', '1'],
    bench: 'waiters',
    expected: {
      runs: [1, 50].map((waiters) => ({
        waiters,
        steps: 10,
        resolved: waiters,
        timedOut: 0,
        waiterMs: latency,
      })),
    },
  },
  {
    script: 'bench/projector-failover.ts',
    args: ['--failovers', '1', '--standby-retry-ms', '200'],
    bench: 'projector-failover',
    expected: { runs: [{ leadMs: rate, projectedMs: rate }], lead: latency },
  },
];

/** Runs `work` once fewer than `size` others run; in the order asked. */
function limitTo(size: number): <T>(work: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    // A finishing run hands its slot to the next waiting one, so `active` only counts real runs.
    if (active < size) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

const inTurn = limitTo(AT_ONCE);

/**
 * What a bench printed to stderr, for a failure message: its start and its end when it is long. A bench
 * that dies on an error logs the error first and may then dump objects (a pg client) for pages, so the
 * end alone can hide what went wrong.
 */
function failureText(stderr: string): string {
  return stderr.length <= 4000 ? stderr : `${stderr.slice(0, 2000)}\n…\n${stderr.slice(-2000)}`;
}

describe.concurrent('benches at a tiny size', () => {
  it.each(smokes.map((smoke) => [`${smoke.script} ${smoke.args.join(' ')}`, smoke] as const))(
    '%s',
    async (_name, smoke) => {
      const outcome = await inTurn(() => runBenchScript(smoke.script, smoke.args, BENCH_TIMEOUT_MS));
      // The bench's own output is the failure message: what it printed before it stopped.
      expect(outcome.code, failureText(outcome.stderr)).toBe(0);
      const result = benchResult(outcome, smoke.bench);
      expect(result).toMatchObject(smoke.expected);
      for (const [what, actual, expected] of smoke.agreeing?.(result as never) ?? []) {
        expect(actual, what).toBe(expected);
      }
    },
    // Waiting for a turn included: every bench before it may take its whole limit.
    (smokes.length / AT_ONCE + 1) * BENCH_TIMEOUT_MS,
  );
});

describe('a database kept by one run and measured again', () => {
  it(
    'bench/stac.ts --reuse asks for what the run that built it asked for',
    async () => {
      const tiny = ['--items', '300', '--collections', '3', '--clients', '2', '--deep-pages', '1'];
      const only = ['--warmup-s', '0', '--duration-s', '0.25', '--views', 'ids: 10 scenes'];
      const built = await inTurn(() =>
        runBenchScript('bench/stac.ts', [...tiny, ...only, '--build', 'rebuild', '--keep'], BENCH_TIMEOUT_MS),
      );
      // The bench names the database it kept even when it failed after creating it: dropped either way.
      const url = /kept database (\S+)/.exec(built.stderr)?.[1];
      const name = url === undefined ? null : new URL(url).pathname.slice(1);
      try {
        expect(built.code, failureText(built.stderr)).toBe(0);
        expect(name, failureText(built.stderr)).not.toBeNull();
        // Measured again in two alternated rounds, through two API processes taking turns.
        const again = ['--reuse', name ?? '', '--rounds', '2', '--api-processes', '2'];
        const measured = await inTurn(() =>
          runBenchScript('bench/stac.ts', [...tiny, ...only, ...again], BENCH_TIMEOUT_MS),
        );
        expect(measured.code, failureText(measured.stderr)).toBe(0);
        // The scene names come from the history generated again: none would make every request fail.
        expect(benchResult(measured, 'stac')).toMatchObject({
          projectedItems: 300,
          views: [
            {
              view: 'ids: 10 scenes by STAC id',
              http: expect.objectContaining({ failed: 0 }) as unknown,
              sql: expect.objectContaining({ failed: 0 }) as unknown,
              rounds: [
                { http: rate, sql: rate, httpFailed: 0, sqlFailed: 0 },
                { http: rate, sql: rate, httpFailed: 0, sqlFailed: 0 },
              ],
            },
          ],
        });
      } finally {
        if (name !== null) await dropKeptDatabase(name);
      }
    },
    3 * BENCH_TIMEOUT_MS,
  );
});
