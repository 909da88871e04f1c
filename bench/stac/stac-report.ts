import type { HttpClient } from '../support/http-get.js';
import { printTable } from '../support/table.js';
import { shareOf } from './paired-rounds.js';
import type { StacBenchOutcome } from './run-stac-bench.js';
import type { ClientBody, HttpProbeClient } from './stac-options.js';

const clientReads: Record<ClientBody, string> = {
  text: 'the client reads each body as text',
  json: 'the client parses each body',
};

const clientSends: Record<HttpClient, string> = {
  node: "node's HTTP client",
  fetch: 'fetch',
};

/** The lowest and highest HTTP share of the rounds and their count, e.g. `41–56% of 6` (one round: its count). */
function shareRange(rounds: StacBenchOutcome['views'][number]['rounds']): string {
  const shares = rounds.map(({ http, sql }) => Math.round(100 * shareOf(http, sql)));
  if (shares.length === 1) return '1';
  return `${Math.min(...shares)}–${Math.max(...shares)}% of ${shares.length}`;
}

export function printStacTables(outcome: StacBenchOutcome, client: HttpProbeClient): void {
  const { seeding, build } = outcome;
  if (seeding && build)
    printTable(
      'Seeded through the event store, then projected',
      ['items', 'events', 'seed s', 'build s', 'events/s', 'items projected'],
      [
        [
          outcome.projectedItems,
          seeding.events,
          seeding.seconds,
          build.seconds,
          build.eventsPerSecond,
          outcome.projectedItems,
        ],
      ],
    );
  printTable(
    `STAC searches under load (limit 100): HTTP (the API, requests sent by ${clientSends[client.http]}; ${clientReads[client.body]}) and the same reads through the API's query code straight to PostgreSQL; CPU in ms per request; with several rounds, the round of the median HTTP share (failed: in every round)`,
    [
      'query',
      'via',
      'req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'failed',
      'api cpu',
      'pg cpu',
      'http/sql',
      'rounds',
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
          // Every round's failures, not only the median pair's: a round with failures is rarely the median.
          result.rounds.reduce(
            (sum, round) => sum + (via === 'http' ? round.httpFailed : round.sqlFailed),
            0,
          ),
          run.cpuMsPerRequest?.api ?? Number.NaN,
          run.cpuMsPerRequest?.postgres ?? Number.NaN,
          via === 'http'
            ? // One decimal: the target is a line (50 %) that rounding could carry a share across.
              `${(100 * shareOf(run.requestsPerSecond, result.sql.requestsPerSecond)).toFixed(1)}%`
            : '',
          via === 'http' ? shareRange(result.rounds) : '',
        ];
      }),
    ),
  );
}
