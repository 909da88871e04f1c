import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ensureEventStoreSchema } from '@portal/eventstore';
import { cpuSince, markCpu } from '../support/cpu.js';
import { scratchSchemaName } from '../support/scratch-database.js';
import { perSecond, summarize, type LatencySummary } from '../support/stats.js';

export interface CeilingOptions {
  readonly clients: readonly number[];
  /** Inserts per client count. */
  readonly inserts: number;
}

export interface CeilingResult {
  readonly clients: number;
  readonly inserts: number;
  readonly seconds: number;
  readonly insertsPerSecond: number;
  readonly latencyMs: LatencySummary;
  /** All cores, 0–100, during the inserts: the machine is shared. */
  readonly machineBusyPercent: number;
}

/**
 * The event store's own tables (`ensureEventStoreSchema`), so each INSERT into `events` maintains the
 * same keys and constraints an append does. The ceiling skips the streams table and NOTIFY: the floor cost.
 */
async function createEventsTable(databaseUrl: string, schema: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, application_name: 'bench-pg-ceiling' });
  try {
    await ensureEventStoreSchema(pool, { schema });
  } finally {
    await pool.end();
  }
}

/** A payload of the size a CatalogCreated from the ingest benchmark has. */
function insertValues(index: number): unknown[] {
  const id = randomUUID();
  return [
    `catalog-${id}`,
    0,
    randomUUID(),
    'CatalogCreated',
    JSON.stringify({
      id,
      title: `Ceiling catalog ${index}`,
      description: 'Orthophotos and elevation models of one survey campaign',
      parentId: null,
      links: [],
    }),
    JSON.stringify({
      actorId: null,
      orgId: null,
      correlationId: randomUUID(),
      causationId: null,
      requestId: randomUUID(),
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    }),
  ];
}

async function insertConcurrently(
  databaseUrl: string,
  schema: string,
  clients: number,
  inserts: number,
): Promise<CeilingResult> {
  const connections = Array.from(
    { length: clients },
    () => new pg.Client({ connectionString: databaseUrl, application_name: 'bench-pg-ceiling' }),
  );
  await Promise.all(connections.map((client) => client.connect()));
  const statement = {
    name: `bench_ceiling_insert_${schema}`,
    text: `INSERT INTO "${schema}".events (stream_id, stream_revision, event_id, type, data, metadata)
           VALUES ($1, $2, $3, $4, $5, $6)`,
  };
  try {
    const latencies: number[] = [];
    let next = 0;
    const run = async (client: pg.Client): Promise<void> => {
      while (next < inserts) {
        const index = next;
        next += 1;
        const startedAt = performance.now();
        // Autocommit: one statement, one transaction, one WAL flush (shared by whoever commits with it).
        await client.query({ ...statement, values: insertValues(index) });
        latencies.push(performance.now() - startedAt);
      }
    };
    const cpuMark = markCpu();
    const startedAt = performance.now();
    await Promise.all(connections.map(run));
    const elapsed = performance.now() - startedAt;
    return {
      clients,
      inserts,
      seconds: elapsed / 1000,
      insertsPerSecond: perSecond(inserts, elapsed),
      latencyMs: summarize(latencies),
      machineBusyPercent: cpuSince(cpuMark).machineBusyPercent,
    };
  } finally {
    await Promise.all(connections.map((client) => client.end()));
  }
}

/** Runs in a fresh schema of `databaseUrl` and drops it afterwards. */
export async function runPgCeiling(databaseUrl: string, options: CeilingOptions): Promise<CeilingResult[]> {
  const schema = scratchSchemaName('bench_ceiling');
  const admin = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-pg-ceiling' });
  // An interrupted run drops the database under this connection; that is expected then.
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await createEventsTable(databaseUrl, schema);
    const results: CeilingResult[] = [];
    for (const clients of options.clients) {
      results.push(await insertConcurrently(databaseUrl, schema, clients, options.inserts));
    }
    return results;
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}
