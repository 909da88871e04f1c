/**
 * A run's renames and leaf deletes as one set statement each (run-renames.ts, run-deletes.ts) against
 * the single handlers, per event, in a read schema of --objects rows; beside them a one-row UPDATE by
 * key per event, the least a statement per event costs. Each round applies the same events each way in a
 * transaction rolled back, so every way meets the same rows; the first rounds warm the plan caches.
 * Then the generic plans of the set statements are explained (every row must be found by key).
 * Usage: npx tsx bench/run-sets.ts [--objects 50000] [--events 50] [--rounds 12]
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import {
  EVENT_SCHEMA_VERSION,
  legacyAccess,
  noItemMetadata,
  type PortalObjectDeleted,
  type PortalObjectUpdated,
  type RecordedEvent,
} from '@portal/domain';
import { createLogger, createPool } from '@portal/platform';
import type { Sql } from '@portal/read-model-core';
import {
  applyLeafDeletesInRun,
  applyRenamesInRun,
  portalObjectsReadModel,
} from '@portal/read-model-portal-objects';
import type pg from 'pg';
import { applyEventsInRuns } from '../apps/projector/src/batch.js';
import { portalProjection } from '../apps/projector/src/portal-projection.js';
import { ensureReadSchema } from '../apps/projector/src/schemas.js';
import { positiveInt, readOptions } from './support/options.js';
import { createScratchDatabase, scratchSchemaName } from './support/scratch-database.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine, printTable } from './support/table.js';

const raw = readOptions('npx tsx bench/run-sets.ts [options]', {
  objects: { env: 'BENCH_RUN_SETS_OBJECTS', default: '50000', help: 'rows of portal_objects' },
  events: { env: 'BENCH_RUN_SETS_EVENTS', default: '50', help: 'renames, and deletes, per round' },
  rounds: { env: 'BENCH_RUN_SETS_ROUNDS', default: '12', help: 'rounds measured (after 6 to warm up)' },
});
const options = {
  objects: positiveInt('objects', raw.objects),
  events: positiveInt('events', raw.events),
  rounds: positiveInt('rounds', raw.rounds),
};
const WARM_UP_ROUNDS = 6;
const ITEMS_PER_COLLECTION = 48;
useTestServiceDefaults();
const log = createLogger({ name: 'bench-run-sets', level: 'warn' });

let position = 0n;
function recorded(type: string, streamId: string, revision: bigint, data: unknown): RecordedEvent {
  position += 1n;
  return {
    id: randomUUID(),
    type,
    data,
    streamId,
    revision,
    position: { commit: position, prepare: position },
    metadata: {
      actorId: randomUUID(),
      orgId: null,
      correlationId: randomUUID(),
      causationId: null,
      requestId: null,
      occurredAt: new Date(Date.UTC(2025, 0, 1) + Number(position) * 1000).toISOString(),
      schemaVersion: EVENT_SCHEMA_VERSION,
    },
  };
}

interface Item {
  readonly id: string;
  readonly parentId: string;
}

/** Catalogs of 20 collections of 48 ready items each (a bbox and an instant), every title its own. */
function treeEvents(objects: number): { events: RecordedEvent[]; items: Item[] } {
  const events: RecordedEvent[] = [];
  const items: Item[] = [];
  const access = { orgId: legacyAccess.orgId, visibility: legacyAccess.visibility, createdBy: null };
  let catalogId = '';
  for (let n = 0; events.length < objects; n++) {
    if (n % 20 === 0) {
      catalogId = randomUUID();
      const data = {
        id: catalogId,
        title: `Catalog ${n}`,
        description: '',
        parentId: null,
        links: [],
        ...access,
      };
      events.push(recorded('CatalogCreated', `catalog-${catalogId}`, 0n, data));
    }
    const collectionId = randomUUID();
    events.push(
      recorded('CollectionCreated', `collection-${collectionId}`, 0n, {
        id: collectionId,
        title: `Collection ${n}`,
        description: '',
        parentId: catalogId,
        links: [],
        license: 'other',
        keywords: [],
        extent: null,
        ...access,
      }),
    );
    for (let i = 0; i < ITEMS_PER_COLLECTION; i++) {
      const id = randomUUID();
      const west = ((n * 7 + i * 13) % 340) - 170;
      const metadata = {
        ...noItemMetadata,
        bbox: [west, -10, west + 5, 10],
        datetime: new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString(),
      };
      const data = {
        id,
        title: `Item ${n} ${i}`,
        description: null,
        parentId: collectionId,
        links: [],
        assets: [],
        metadata,
        ...access,
      };
      events.push(recorded('ItemRegistered', `item-${id}`, 0n, data));
      items.push({ id, parentId: collectionId });
    }
  }
  return { events, items };
}

type Rename = readonly [PortalObjectUpdated, RecordedEvent];
type Delete = readonly [PortalObjectDeleted, RecordedEvent];

/** Renames of `count` items (half with a description too): new titles of their own, so no slug clashes. */
function renamesOf(items: readonly Item[], round: number): Rename[] {
  return items.map((item, n) => {
    const changes =
      n % 2 === 0
        ? { title: `Renamed ${round} ${n}` }
        : { title: `Renamed ${round} ${n}`, description: 'new' };
    const event: PortalObjectUpdated = {
      type: 'PortalObjectUpdated',
      data: { id: item.id, kind: 'item', changes, previous: {} },
    };
    return [event, recorded(event.type, `item-${item.id}`, 1n, event.data)];
  });
}

function deletesOf(items: readonly Item[]): Delete[] {
  return items.map((item) => {
    const event: PortalObjectDeleted = {
      type: 'PortalObjectDeleted',
      data: { id: item.id, kind: 'item', recursive: false },
    };
    return [event, recorded(event.type, `item-${item.id}`, 1n, event.data)];
  });
}

/** `count` items, two of each collection picked (deletes below one parent combine), none picked before. */
function pick(items: readonly Item[], count: number, taken: Set<string>): Item[] {
  const picked: Item[] = [];
  while (picked.length < count) {
    const start = Math.floor(Math.random() * (items.length - 1));
    for (const item of [items[start], items[start + 1]]) {
      if (item && !taken.has(item.id) && picked.length < count) {
        taken.add(item.id);
        picked.push(item);
      }
    }
  }
  return picked;
}

type Way =
  | 'renames one by one'
  | 'renames as a set'
  | 'deletes one by one'
  | 'deletes as a set'
  | 'one-row UPDATE by key';

const database = await createScratchDatabase('bench_run_sets');
const pool = createPool({ connectionString: database.url, max: 2, applicationName: 'bench-run-sets' });
pool.on('error', () => undefined);
try {
  await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
  const schema = scratchSchemaName('bench_read');
  await ensureReadSchema(pool, { schema, projection: portalProjection });
  const tree = treeEvents(options.objects);
  const client = await pool.connect();
  try {
    const filledAt = performance.now();
    for (let start = 0; start < tree.events.length; start += 5000) {
      await client.query(`BEGIN; SET LOCAL search_path TO "${schema}", public`);
      await applyEventsInRuns(client, portalProjection, tree.events.slice(start, start + 5000), log);
      await client.query('COMMIT');
    }
    await client.query(`ANALYZE "${schema}".portal_objects`);
    const rows = await client.query<{ count: string }>(`SELECT count(*) FROM "${schema}".portal_objects`);
    process.stdout.write(
      `${rows.rows[0]?.count ?? '?'} rows in ${((performance.now() - filledAt) / 1000).toFixed(1)} s\n`,
    );

    const ways: Record<Way, (sql: Sql, renames: Rename[], deletes: Delete[]) => Promise<number>> = {
      'renames one by one': async (sql, renames) => {
        for (const [, event] of renames) await portalObjectsReadModel.apply(sql, event, { log });
        return renames.length;
      },
      'renames as a set': async (sql, renames) => {
        await applyRenamesInRun(sql, renames);
        return renames.length;
      },
      'deletes one by one': async (sql, _renames, deletes) => {
        for (const [, event] of deletes) await portalObjectsReadModel.apply(sql, event, { log });
        return deletes.length;
      },
      'deletes as a set': async (sql, _renames, deletes) => {
        await applyLeafDeletesInRun(sql, deletes);
        return deletes.length;
      },
      'one-row UPDATE by key': async (sql, renames) => {
        for (const [event, at] of renames) {
          await sql.query({
            name: 'bench_one_row_update',
            text: 'UPDATE portal_objects SET updated_at = $2 WHERE id = $1',
            values: [event.data.id, at.metadata.occurredAt],
          });
        }
        return renames.length;
      },
    };
    const measured = new Map<Way, number[]>();
    const loads: number[] = [];
    const taken = new Set<string>();
    for (let round = 0; round < WARM_UP_ROUNDS + options.rounds; round++) {
      const renames = renamesOf(pick(tree.items, options.events, taken), round);
      const deletes = deletesOf(pick(tree.items, options.events, taken));
      for (const [way, apply] of Object.entries(ways) as [Way, (typeof ways)[Way]][]) {
        await client.query(`BEGIN; SET LOCAL search_path TO "${schema}", public`);
        const began = performance.now();
        const events = await apply(client, renames, deletes);
        const msPerEvent = (performance.now() - began) / events;
        await client.query('ROLLBACK');
        if (round >= WARM_UP_ROUNDS) measured.set(way, [...(measured.get(way) ?? []), msPerEvent]);
      }
      if (round >= WARM_UP_ROUNDS) loads.push(loadavg()[0] ?? NaN);
    }
    const median = (values: readonly number[]): number => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] ?? NaN;
    };
    const ceiling = median(measured.get('one-row UPDATE by key') ?? []);
    printTable(
      `${options.events} events per round, ${options.rounds} rounds after ${WARM_UP_ROUNDS} to warm up, ` +
        `${tree.events.length.toLocaleString('en-US')} rows; load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
      ['way', 'median ms/event', 'min', 'max', 'vs one-row UPDATE'],
      [...measured].map(([way, values]) => [
        way,
        median(values),
        Math.min(...values),
        Math.max(...values),
        `${(median(values) / ceiling).toFixed(2)}×`,
      ]),
    );

    // The plans the cache keeps once it goes generic: no argument can then make them scan the table.
    const captured: { text: string; values: unknown[] }[] = [];
    const capturing: Sql = {
      query: (async (config: pg.QueryConfig) => {
        captured.push({ text: config.text, values: config.values ?? [] });
        return client.query(config);
      }) as Sql['query'],
    };
    await client.query(`BEGIN; SET LOCAL search_path TO "${schema}", public`);
    await applyRenamesInRun(capturing, renamesOf(pick(tree.items, options.events, taken), 99));
    await applyLeafDeletesInRun(capturing, deletesOf(pick(tree.items, options.events, taken)));
    await client.query('ROLLBACK');
    for (const { text, values } of captured) {
      await client.query(
        `BEGIN; SET LOCAL search_path TO "${schema}", public; SET LOCAL plan_cache_mode = force_generic_plan`,
      );
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF, TIMING OFF) ${text}`,
        values,
      );
      await client.query('ROLLBACK');
      const lines = plan.rows.map((row) => row['QUERY PLAN']);
      const scans = lines.filter((line) => /Seq Scan on portal_objects/.test(line));
      process.stdout.write(
        `\n${text.slice(0, 60).trim()}… generic plan, ${scans.length} table scans\n${lines.join('\n')}\n`,
      );
    }
    printJsonLine('run-sets', {
      options,
      rows: tree.events.length,
      loads,
      measured: Object.fromEntries(measured),
    });
  } finally {
    client.release();
  }
} finally {
  await pool.end();
  await database.drop();
}
