/**
 * Measures single-event append throughput on PostgreSQL, sequential and concurrent, each beside the
 * same run's ceiling: single-row INSERTs of the same rows into a plain events-shaped table (no stream
 * revisions, no ordering barrier), from the same number of connections.
 * Also `appendMany` of 100 single-event streams per call, from 4 connections.
 * Usage: npx tsx libs/eventstore/scripts/append-throughput.ts [appends=5000] [concurrency=16]
 * Uses BENCH_DATABASE_URL (default the `portal_test` database) and a throwaway schema.
 * Prints one line per figure and a final JSON line.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore, ensureEventStoreSchema } from '../src/index.js';

const appends = Number(process.argv[2] ?? 5000);
const concurrency = Number(process.argv[3] ?? 16);
const batchSize = 100;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';

function event(): Parameters<PostgresEventStore['append']>[1][number] {
  return {
    id: randomUUID(),
    type: 'BenchmarkEventHappened',
    data: {
      title: 'A catalog of tiles',
      links: [{ rel: 'self', href: `https://example.org/${randomUUID()}` }],
    },
    metadata: {
      actorId: randomUUID(),
      orgId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      requestId: randomUUID(),
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

/** Writes `appends` events from `workers` loops, `perCall` per call of `once`; returns events per second. */
async function rate(
  label: string,
  workers: number,
  once: () => Promise<unknown>,
  perCall = 1,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < appends) {
        next += perCall;
        await once();
      }
    }),
  );
  const perSecond = appends / ((performance.now() - started) / 1000);
  console.info(`${label}: ${Math.round(perSecond)}/s`);
  return perSecond;
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: concurrency + 1 });
const schema = `es_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
try {
  await ensureEventStoreSchema(pool, { schema });
  await pool.query(`CREATE TABLE "${schema}".ceiling (LIKE "${schema}".events INCLUDING DEFAULTS)`);
  const store = new PostgresEventStore(pool, { schema });
  const append = () => store.append(`bench-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' });
  const appendMany = () =>
    store.appendMany(
      Array.from({ length: batchSize }, () => ({
        streamId: `bench-${randomUUID()}`,
        events: [event()],
        expectedRevision: 'no_stream' as const,
      })),
    );
  const insert = () => {
    const { id, type, data, metadata } = event();
    return pool.query({
      name: 'ceiling_insert',
      text: `INSERT INTO "${schema}".ceiling (stream_id, stream_revision, event_id, type, data, metadata)
             VALUES ($1, 0, $2, $3, $4, $5)`,
      values: [`bench-${randomUUID()}`, id, type, JSON.stringify(data), JSON.stringify(metadata)],
    });
  };
  const result = {
    appends,
    concurrency,
    sequentialInsertsPerSecond: await rate('sequential INSERT (ceiling)', 1, insert),
    sequentialAppendsPerSecond: await rate('sequential append', 1, append),
    concurrentInsertsPerSecond: await rate(`${concurrency} concurrent INSERT (ceiling)`, concurrency, insert),
    concurrentAppendsPerSecond: await rate(`${concurrency} concurrent append`, concurrency, append),
    appendManyEventsPerSecond: await rate(
      `appendMany of ${batchSize} streams, 4 concurrent`,
      4,
      appendMany,
      batchSize,
    ),
  };
  console.info(
    `append / INSERT: sequential ${(result.sequentialAppendsPerSecond / result.sequentialInsertsPerSecond).toFixed(2)}, ` +
      `concurrent ${(result.concurrentAppendsPerSecond / result.concurrentInsertsPerSecond).toFixed(2)}, ` +
      `appendMany ${(result.appendManyEventsPerSecond / result.concurrentInsertsPerSecond).toFixed(2)} of the concurrent INSERT rate`,
  );
  console.info(JSON.stringify(result));
  await store.close();
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}
