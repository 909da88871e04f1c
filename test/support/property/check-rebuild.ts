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

async function rebuiltPosition(client: pg.Client, schema: string): Promise<string> {
  const result = await client.query<{ position: string }>(
    `SELECT commit_position || '.' || prepare_position AS position FROM "${schema}".projection_checkpoints WHERE name = 'portal'`,
  );
  const position = result.rows[0]?.position;
  if (position === undefined) throw new Error('the rebuilt schema has no checkpoint');
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

export async function rebuildProblems(stack: Stack): Promise<string[]> {
  const schema = `read_rebuilt_${randomBytes(4).toString('hex')}`;
  await stack.runScript('apps/projector/src/rebuild.ts', {
    PROJECTOR_READ_SCHEMA: schema,
    LOG_LEVEL: 'warn',
  });
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    await waitForPositionAt(stack.baseUrl, await rebuiltPosition(client, schema));
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
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}
