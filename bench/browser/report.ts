import { printTable } from '../support/table.js';
import { HTTP_FLOOR_VIEW } from './probes.js';
import type { BrowserBenchOutcome } from './run-browser-bench.js';

export function printBrowserTables(outcome: BrowserBenchOutcome): void {
  const { seeding, build } = outcome;
  printTable(
    'Seeded through the event store, then projected',
    [
      'objects',
      'catalogs',
      'collections',
      'items',
      'events',
      'seed s',
      'build s',
      'events/s',
      'rows projected',
    ],
    [
      [
        Object.values(seeding.objects).reduce((sum, count) => sum + count, 0),
        seeding.objects.catalog ?? 0,
        seeding.objects.collection ?? 0,
        seeding.objects.item ?? 0,
        seeding.events,
        seeding.seconds,
        build.seconds,
        build.eventsPerSecond,
        outcome.projectedObjects,
      ],
    ],
  );
  printTable(
    'Projector events/s per tenth of the history',
    build.tenthRates.map((_, index) => `${index * 10}–${index * 10 + 10}%`),
    [build.tenthRates],
  );
  const floor = outcome.views.find((result) => result.view === HTTP_FLOOR_VIEW);
  printTable(
    'Views under load: HTTP (the API) and the same SQL straight through pg (the ceiling for the HTTP layer); CPU columns in ms per request; "of floor": HTTP req/s as a share of the API\'s fastest answer (GET /health)',
    [
      'view',
      'via',
      'req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'max ms',
      'failed',
      'cpu busy',
      'api cpu',
      'pg cpu',
      'bench cpu',
      'cpu/req',
      'of floor',
    ],
    outcome.views.flatMap((result) =>
      (['http', 'sql'] as const).map((via) => {
        const run = result[via];
        return [
          result.view,
          via,
          run.requestsPerSecond,
          run.latency.p50,
          run.latency.p95,
          run.latency.p99,
          run.latency.max,
          run.failed,
          `${Math.round(run.machineBusyPercent)}%`,
          // Milliseconds of CPU per request: where the two cores go, and so the rate they allow.
          run.cpuMsPerRequest?.api ?? Number.NaN,
          run.cpuMsPerRequest?.postgres ?? Number.NaN,
          run.cpuMsPerRequest?.bench ?? Number.NaN,
          run.cpuMsPerRequest?.total ?? Number.NaN,
          via === 'http' && floor !== undefined
            ? `${Math.round((100 * run.requestsPerSecond) / floor.http.requestsPerSecond)}%`
            : '',
        ];
      }),
    ),
  );
}
