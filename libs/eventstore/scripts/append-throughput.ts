/**
 * Measures single-event append throughput on PostgreSQL, sequential and concurrent.
 * Usage: npx tsx libs/eventstore/scripts/append-throughput.ts [appends=5000] [concurrency=16]
 * Uses BENCH_DATABASE_URL (default the `portal_test` database) and a throwaway schema.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PostgresEventStore, ensureEventStoreSchema } from '../src/index.js';

const appends = Number(process.argv[2] ?? 5000);
const concurrency = Number(process.argv[3] ?? 16);
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

async function run(label: string, workers: number, store: PostgresEventStore): Promise<void> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < appends) {
        next += 1;
        await store.append(`bench-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.info(
    `${label}: ${appends} appends in ${seconds.toFixed(2)} s = ${Math.round(appends / seconds)} appends/s`,
  );
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: concurrency + 1 });
const schema = `es_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
try {
  await ensureEventStoreSchema(pool, { schema });
  const store = new PostgresEventStore(pool, { schema });
  await run('sequential', 1, store);
  await run(`${concurrency} concurrent`, concurrency, store);
  await store.close();
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}
