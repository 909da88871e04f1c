/**
 * The leaf moves of a run as one statement (`applyLeafMovesInRun`) against the same moves one by one
 * (`applyMove`, one statement each), on a seeded read schema; beside them, a one-row UPDATE by key per
 * move (the round trip and write every per-event statement pays at least). Each round draws new moves and
 * applies them three ways, each in a transaction rolled back, so every way starts from the same rows.
 * Then EXPLAIN ANALYZE of the set statement, generic and custom plans: how it reads `portal_objects`.
 * Usage: npx tsx bench/leaf-moves.ts [--catalogs 100] [--moves 50] [--rounds 12]
 */
import { loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import { EVENT_SCHEMA_VERSION, type PortalObjectMoved, type RecordedEvent } from '@portal/domain';
import { createPool, type PoolClient } from '@portal/platform';
import { portalProjection } from '../apps/projector/src/portal-projection.js';
import { ensureReadSchema } from '../apps/projector/src/schemas.js';
import { applyLeafMovesInRun } from '../libs/read-models/portal-objects/src/run-moves.js';
import { applyMove } from '../libs/read-models/portal-objects/src/move-statement.js';
import { explainLeafMoves } from './leaf-moves/plan-check.js';
import { collectionId, itemId, rowsOf, seedTree, type TreeShape } from './leaf-moves/seeded-tree.js';
import { SeededRandom } from './replay/seeded-random.js';
import { choiceList, isOn, positiveInt, readOptions } from './support/options.js';
import { createScratchDatabase, scratchSchemaName } from './support/scratch-database.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine, printTable } from './support/table.js';

const raw = readOptions('npx tsx bench/leaf-moves.ts [options]', {
  catalogs: {
    env: 'BENCH_LEAF_CATALOGS',
    default: '100',
    help: 'root catalogs, each with 20 collections of 25 items',
  },
  moves: { env: 'BENCH_LEAF_MOVES', default: '50', help: 'leaf moves per run' },
  rounds: { env: 'BENCH_LEAF_ROUNDS', default: '12', help: 'rounds measured after two of warm-up' },
  'show-plans': {
    env: 'BENCH_LEAF_SHOW_PLANS',
    default: 'false',
    flag: true,
    help: 'print both plans in full',
  },
  'plan-cache-mode': {
    env: 'BENCH_LEAF_PLAN_CACHE_MODE',
    default: 'auto',
    help: 'auto (the projector on an analyzed schema) or force_custom_plan (before its first ANALYZE)',
  },
});
const options = {
  catalogs: positiveInt('catalogs', raw.catalogs),
  moves: positiveInt('moves', raw.moves),
  rounds: positiveInt('rounds', raw.rounds),
  showPlans: isOn(raw['show-plans']),
  planCacheMode:
    choiceList('plan-cache-mode', raw['plan-cache-mode'], ['auto', 'force_custom_plan'])[0] ?? 'auto',
};
const shape: TreeShape = { catalogs: options.catalogs, collectionsPerCatalog: 20, itemsPerCollection: 25 };
const warmupRounds = 2;
useTestServiceDefaults();

type Move = readonly [PortalObjectMoved, RecordedEvent];

/** `count` items, each from a different place, moved to random other collections (shared ones too). */
function drawMoves(random: SeededRandom, round: number, count: number): Move[] {
  const pick = (n: number): number => 1 + random.int(n);
  const chosen = new Set<string>();
  const moves: Move[] = [];
  while (moves.length < count) {
    const [c, k, i] = [
      pick(shape.catalogs),
      pick(shape.collectionsPerCatalog),
      pick(shape.itemsPerCollection),
    ];
    const id = itemId(c, k, i);
    if (chosen.has(id)) continue;
    chosen.add(id);
    const from = collectionId(c, k);
    let to = from;
    while (to === from) to = collectionId(pick(shape.catalogs), pick(shape.collectionsPerCatalog));
    const event: PortalObjectMoved = {
      type: 'PortalObjectMoved',
      data: { id, kind: 'item', fromParentId: from, toParentId: to },
    };
    const position = BigInt(round * count + moves.length + 1);
    moves.push([
      event,
      {
        id: randomUUID(),
        type: event.type,
        data: event.data,
        streamId: `item-${id}`,
        // Seeded at version 1; every round is rolled back.
        revision: 2n,
        position: { commit: position, prepare: position },
        metadata: {
          actorId: null,
          orgId: null,
          correlationId: randomUUID(),
          causationId: null,
          requestId: null,
          occurredAt: new Date(Date.parse('2025-06-01T00:00:00Z') + Number(position) * 1000).toISOString(),
          schemaVersion: EVENT_SCHEMA_VERSION,
        },
      },
    ]);
  }
  return moves;
}

/** The work's milliseconds, in a transaction on the read schema that is rolled back afterwards. */
async function timedRolledBack(
  client: PoolClient,
  schema: string,
  work: () => Promise<void>,
): Promise<number> {
  await client.query(
    `BEGIN; SET LOCAL search_path TO "${schema}", public; SET LOCAL plan_cache_mode = ${options.planCacheMode}`,
  );
  try {
    const started = performance.now();
    await work();
    return performance.now() - started;
  } finally {
    await client.query('ROLLBACK');
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

const database = await createScratchDatabase('bench_leaf_moves');
const pool = createPool({ connectionString: database.url, max: 2, applicationName: 'bench-leaf-moves' });
pool.on('error', () => undefined);
const loadBefore = loadavg()[0] ?? NaN;
try {
  await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
  const schema = scratchSchemaName('bench_read');
  await ensureReadSchema(pool, { schema, projection: portalProjection });
  const client = await pool.connect();
  try {
    await client.query(`SET search_path TO "${schema}", public`);
    const seedStarted = performance.now();
    await seedTree(client, shape, randomUUID(), randomUUID());
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    await client.query('RESET search_path');

    const random = new SeededRandom(20261129);
    const ways = { set: [] as number[], oneByOne: [] as number[], ceiling: [] as number[] };
    let lastMoves: Move[] = [];
    for (let round = 0; round < warmupRounds + options.rounds; round += 1) {
      const moves = drawMoves(random, round, options.moves);
      lastMoves = moves;
      const timings = {
        set: () => applyLeafMovesInRun(client, moves),
        oneByOne: async () => {
          for (const [event, recorded] of moves) await applyMove(client, event, recorded);
        },
        ceiling: async () => {
          for (const [event, recorded] of moves) {
            await client.query({
              name: 'bench_leaf_moves_ceiling',
              text: 'UPDATE portal_objects SET updated_at = $2 WHERE id = $1',
              values: [event.data.id, recorded.metadata.occurredAt],
            });
          }
        },
      };
      // The order of the ways turns round by round, so none always runs first on a warm cache.
      const order = (['set', 'oneByOne', 'ceiling'] as const).map(
        (_, index, all) => all[(index + round) % all.length] ?? 'set',
      );
      for (const way of order) {
        const ms = await timedRolledBack(client, schema, timings[way]);
        if (round >= warmupRounds) ways[way].push(ms / options.moves);
      }
    }
    const plans = await explainLeafMoves(client, schema, [
      lastMoves.map(([event]) => event.data.id),
      lastMoves.map(([, recorded]) => recorded.revision.toString()),
      lastMoves.map(([event]) => event.data.toParentId),
      lastMoves.map(([, recorded]) => recorded.metadata.occurredAt),
    ]);
    const loadAfter = loadavg()[0] ?? NaN;
    const rows = rowsOf(shape);
    const set = median(ways.set);
    const oneByOne = median(ways.oneByOne);
    const ceiling = median(ways.ceiling);
    printTable(
      `${options.moves} leaf moves per run on ${rows.toLocaleString('en-US')} rows, ${options.rounds} rounds, ` +
        `plan_cache_mode ${options.planCacheMode}, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} ` +
        '(ms per move, median and min of the rounds)',
      ['way', 'median ms/move', 'min ms/move', '× the set statement'],
      [
        ['set statement (applyLeafMovesInRun)', set, Math.min(...ways.set), 1],
        ['one by one (applyMove)', oneByOne, Math.min(...ways.oneByOne), oneByOne / set],
        ['ceiling: a one-row UPDATE by key each', ceiling, Math.min(...ways.ceiling), ceiling / set],
      ],
    );
    printTable(
      "How the set statement reads portal_objects (EXPLAIN ANALYZE of the last round's moves)",
      ['plan', 'seq scans', 'rows read', 'ms', 'accesses'],
      plans.map((plan) => [
        plan.mode,
        plan.seqScans,
        plan.rowsRead,
        plan.ms,
        Object.entries(plan.accesses)
          .map(([access, count]) => `${count}× ${access}`)
          .join(', '),
      ]),
    );
    if (options.showPlans) {
      for (const plan of plans) process.stdout.write(`\n${plan.mode} plan:\n${plan.text}\n`);
    }
    printJsonLine('leaf-moves', {
      options,
      rows,
      seedSeconds,
      loadAverage: { before: loadBefore, after: loadAfter },
      msPerMove: { set, oneByOne, ceiling },
      rounds: ways,
      plans: plans.map(({ text: _text, ...plan }) => plan),
    });
  } finally {
    client.release();
  }
} finally {
  await pool.end();
  await database.drop();
}
