import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { waitForPositionAt } from '../command-answer.js';
import type { Stack } from '../stack.js';

/**
 * Property (c): the live read models equal a rebuild. The projector's own rebuild
 * (`apps/projector/src/rebuild.ts`) replays every event of the store into a fresh schema; once the live
 * projector has reached the same position, the two schemas are compared table by table, row by row.
 * Returns what differs, one line per table.
 */

/** Columns that differ by design: `seq` is renumbered by a rebuild, a checkpoint's time is when it was written. */
const IGNORED: Readonly<Record<string, readonly string[]>> = {
  audit_events: ['seq'],
  projection_checkpoints: ['updated_at'],
};

const LIVE_SCHEMA = 'read';

async function tablesOf(client: pg.Client, schema: string): Promise<string[]> {
  const result = await client.query<{ tablename: string }>(
    'SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename',
    [schema],
  );
  return result.rows.map((row) => row.tablename);
}

/** Every row as JSON text without the ignored columns, sorted: comparable whatever the physical order. */
async function rowsOf(client: pg.Client, schema: string, table: string): Promise<string[]> {
  const ignored = IGNORED[table] ?? [];
  const result = await client.query<{ row: string }>(
    `SELECT (to_jsonb(t) - $1::text[])::text AS row FROM "${schema}"."${table}" t`,
    [ignored],
  );
  return result.rows.map((row) => row.row).sort();
}

/** The `portal` checkpoint of a read schema, live or rebuilt. */
async function portalPosition(client: pg.Client, schema: string): Promise<string> {
  const result = await client.query<{ position: string }>(
    `SELECT commit_position || '.' || prepare_position AS position FROM "${schema}".projection_checkpoints WHERE name = 'portal'`,
  );
  const position = result.rows[0]?.position;
  if (position === undefined) throw new Error(`schema ${schema} has no checkpoint`);
  return position;
}

function tableProblem(table: string, live: readonly string[], rebuilt: readonly string[]): string | null {
  const rebuiltSet = new Set(rebuilt);
  const liveSet = new Set(live);
  const onlyLive = live.filter((row) => !rebuiltSet.has(row));
  const onlyRebuilt = rebuilt.filter((row) => !liveSet.has(row));
  if (onlyLive.length === 0 && onlyRebuilt.length === 0 && live.length === rebuilt.length) return null;
  const sample = (rows: readonly string[]) =>
    rows
      .slice(0, 2)
      .map((row) => row.slice(0, 600))
      .join('\n      ');
  return [
    `${table}: ${live.length} live rows, ${rebuilt.length} rebuilt; ${onlyLive.length} only live, ${onlyRebuilt.length} only rebuilt`,
    `    live:    ${sample(onlyLive)}`,
    `    rebuilt: ${sample(onlyRebuilt)}`,
  ].join('\n');
}

/** How many rebuilds are tried before a live projection that keeps moving on is reported. */
const REBUILD_ATTEMPTS = 4;

/**
 * Rebuilds into a fresh schema and compares it with the live one at the same position. The stack's
 * upload worker appends events of its own (a sweep aborts the uploads of deleted items), so the live
 * projection may have moved past the rebuild by the time it is read: the live tables are read in one
 * snapshot with their checkpoint, and a checkpoint past the rebuilt one means a rebuild again.
 */
export async function rebuildProblems(stack: Stack): Promise<string[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt += 1) {
      const schema = `read_rebuilt_${randomBytes(4).toString('hex')}`;
      await stack.runScript('apps/projector/src/rebuild.ts', {
        PROJECTOR_READ_SCHEMA: schema,
        LOG_LEVEL: 'warn',
      });
      try {
        const rebuilt = await portalPosition(client, schema);
        await waitForPositionAt(stack.baseUrl, rebuilt);
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        try {
          const live = await portalPosition(client, LIVE_SCHEMA);
          if (live !== rebuilt && attempt < REBUILD_ATTEMPTS) continue;
          return await schemaProblems(client, schema);
        } finally {
          await client.query('COMMIT');
        }
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    }
  } finally {
    await client.end();
  }
}

/** What differs between the live schema and `schema`, one line per table (the checkpoint's among them). */
async function schemaProblems(client: pg.Client, schema: string): Promise<string[]> {
  const problems: string[] = [];
  const liveTables = await tablesOf(client, LIVE_SCHEMA);
  const rebuiltTables = await tablesOf(client, schema);
  if (JSON.stringify(liveTables) !== JSON.stringify(rebuiltTables)) {
    problems.push(`tables: live ${liveTables.join(', ')}; rebuilt ${rebuiltTables.join(', ')}`);
  }
  for (const table of liveTables.filter((name) => rebuiltTables.includes(name))) {
    const problem = tableProblem(
      table,
      await rowsOf(client, LIVE_SCHEMA, table),
      await rowsOf(client, schema, table),
    );
    if (problem) problems.push(problem);
  }
  return problems;
}
