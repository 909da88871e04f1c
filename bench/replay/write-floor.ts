import type { Pool, PoolClient } from '@portal/platform';
import { scratchSchemaName } from '../support/scratch-database.js';
import { SeededRandom } from './seeded-random.js';
import { tableWrites, type TableWrites } from './table-writes.js';

/**
 * The floor under any SQL path that keeps these read models: the row writes a replay made (its inserts,
 * its updates that wrote index entries, its heap-only updates, its audit rows), made again with no
 * logic at all, into copies of the tables with every index, in the replay's batches. No statement finds
 * a parent, checks a slug or computes a path; each is one set statement of a batch's share of one kind
 * of write. What is left is about what PostgreSQL needs to store the rows and their index entries, so a
 * path that writes as many row versions on one connection will not be faster than this on the same
 * machine. It is not exact either way:
 * - the rows are read from a copy indexed only by their number (the replay sends them as arrays), and
 *   inserted as the replay left them, so a tombstone skips the partial indexes it was once in;
 * - a parent's count is written at most once a batch (the replay writes it once per run below it)
 *   until the last batch, which writes what the others could not, so early batches write fewer;
 * - a parent's first update here may find its page full and write index entries where the replay's did
 *   not (both counts are printed);
 * - only portal_objects and audit_events are copied: uploads, assets and the inventory totals are not.
 */
export interface WriteFloor {
  readonly events: number;
  readonly seconds: number;
  readonly kinds: readonly FloorKind[];
  /** The copy of portal_objects' updates, and how many of them PostgreSQL made heap-only. */
  readonly objectUpdates: { readonly updates: number; readonly hot: number };
}

export interface FloorKind {
  readonly kind: string;
  /** Rows the kind's statements wrote (commits: the batches). */
  readonly rows: number;
  /** Time of its statements' round trips, over all batches. */
  readonly ms: number;
}

interface FloorOptions {
  readonly sourceSchema: string;
  readonly events: number;
  /** The replay's batch transactions: the floor writes in as many. */
  readonly batches: number;
  readonly seed: number;
  readonly writes: readonly TableWrites[];
}

const copiedTables = ['portal_objects', 'audit_events'] as const;

/** A total spread evenly over the batches: how many of it up to batch `index` included. */
function cumulativeShare(total: number, index: number, batches: number): number {
  return Math.round((total * (index + 1)) / batches);
}

async function columnList(client: PoolClient, schema: string, table: string): Promise<string> {
  const result = await client.query<{ name: string }>(
    `SELECT quote_ident(attname) AS name FROM pg_attribute
      WHERE attrelid = format('%I.%I', $1::text, $2::text)::regclass AND attnum > 0 AND NOT attisdropped
      ORDER BY attnum`,
    [schema, table],
  );
  return result.rows.map(({ name }) => name).join(', ');
}

/**
 * Copies each table's definition with every index (`LIKE … INCLUDING ALL`: no trigger, so the floor
 * leaves out the totals' and the stored STAC JSON's), and its rows, numbered in the order they were
 * written (objects by creation, audit rows by `seq`), into a table indexed only by that number, which
 * the batches read from.
 */
async function prepareCopies(
  client: PoolClient,
  source: string,
  floor: string,
): Promise<Map<string, string>> {
  await client.query(`CREATE SCHEMA "${floor}"`);
  const columns = new Map<string, string>();
  for (const table of copiedTables) {
    const order = table === 'portal_objects' ? 'created_at, id' : 'seq';
    await client.query(`CREATE TABLE "${floor}".${table} (LIKE "${source}".${table} INCLUDING ALL)`);
    await client.query(
      `CREATE TABLE "${floor}".${table}_rows AS
         SELECT row_number() OVER (ORDER BY ${order}) AS n, * FROM "${source}".${table}`,
    );
    await client.query(`CREATE INDEX ON "${floor}".${table}_rows (n)`);
    await client.query(`ANALYZE "${floor}".${table}_rows`);
    columns.set(table, await columnList(client, source, table));
  }
  return columns;
}

/** Distinct ids among the first `available` objects, a fresh random pick per batch. */
function pickIds(ids: readonly string[], available: number, count: number, random: SeededRandom): string[] {
  const picked = new Set<string>();
  const range = Math.min(available, ids.length);
  const wanted = Math.min(count, range);
  while (picked.size < wanted) picked.add(ids[random.int(range)] as string);
  return [...picked];
}

export async function measureWriteFloor(pool: Pool, options: FloorOptions): Promise<WriteFloor> {
  const objects = options.writes.find(({ table }) => table === 'portal_objects');
  const audit = options.writes.find(({ table }) => table === 'audit_events');
  const totals = {
    inserted: objects?.inserts ?? 0,
    indexedUpdates: (objects?.updates ?? 0) - (objects?.hotUpdates ?? 0),
    hotUpdates: objects?.hotUpdates ?? 0,
    audit: audit?.inserts ?? 0,
  };
  const floor = scratchSchemaName('bench_floor');
  const client = await pool.connect();
  const ms = { inserted: 0, indexedUpdates: 0, hotUpdates: 0, audit: 0, commit: 0 };
  const rows = { inserted: 0, indexedUpdates: 0, hotUpdates: 0, audit: 0, commit: 0 };
  const timed = async (
    kind: keyof typeof ms,
    run: () => Promise<{ rowCount: number | null }>,
  ): Promise<void> => {
    const began = performance.now();
    const result = await run();
    ms[kind] += performance.now() - began;
    rows[kind] += kind === 'commit' ? 1 : (result.rowCount ?? 0);
  };
  try {
    const columns = await prepareCopies(client, options.sourceSchema, floor);
    // The objects in creation order (the copy's `n` is their place + 1). The replay's heap-only updates
    // are its parents' child counts and extents: the same rows written again and again.
    const numbered = (
      await client.query<{ id: string; parent: boolean }>(
        `SELECT id, child_count > 0 AS parent FROM "${floor}".portal_objects_rows ORDER BY n`,
      )
    ).rows;
    const ids = numbered.map(({ id }) => id);
    const parents = numbered.flatMap(({ id, parent }, index) => (parent ? [{ id, n: index + 1 }] : []));
    // How many parents are among the first `inserted` objects (asked with a growing count).
    let parentsInserted = 0;
    const parentsWithin = (inserted: number): number => {
      while ((parents[parentsInserted]?.n ?? Infinity) <= inserted) parentsInserted += 1;
      return parentsInserted;
    };
    const parentIds = parents.map(({ id }) => id);
    const random = new SeededRandom(options.seed);
    const { batches } = options;
    // The objects' rows in creation order, and the audit rows in `seq` order: rows `from` + 1 to `to`.
    const insertRows = (
      table: (typeof copiedTables)[number],
      kind: 'inserted' | 'audit',
      from: number,
      to: number,
    ) =>
      timed(kind, () =>
        client.query({
          name: `floor_${table}_insert`,
          text: `INSERT INTO "${floor}".${table} SELECT ${columns.get(table)} FROM "${floor}".${table}_rows
                  WHERE n > $1 AND n <= $2`,
          values: [from, to],
        }),
      );
    const statements = {
      indexedUpdates: `UPDATE "${floor}".portal_objects SET updated_at = updated_at + interval '1 millisecond'
                        WHERE id = ANY($1::uuid[])`,
      hotUpdates: `UPDATE "${floor}".portal_objects SET child_count = child_count + 1 WHERE id = ANY($1::uuid[])`,
    };
    /**
     * Updates of one kind until `target` of them are written: distinct rows among the first `available`
     * of `candidates` in one statement. What a batch with too few rows yet cannot write is carried to the
     * next; the last batch writes what is left in as many statements as it takes (a row then gets
     * several versions in one transaction, as the replay's parents do).
     */
    const updateRows = async (
      kind: 'indexedUpdates' | 'hotUpdates',
      candidates: readonly string[],
      available: number,
      target: number,
      last: boolean,
    ): Promise<void> => {
      do {
        const picked = pickIds(candidates, available, target - rows[kind], random);
        const before = rows[kind];
        if (picked.length === 0) return;
        await timed(kind, () =>
          client.query({ name: `floor_objects_${kind}`, text: statements[kind], values: [picked] }),
        );
        if (rows[kind] === before) return;
      } while (last && rows[kind] < target);
    };
    const done = { inserted: 0, audit: 0 };
    const startedAt = performance.now();
    for (let batch = 0; batch < batches; batch += 1) {
      const last = batch === batches - 1;
      const next = {
        inserted: cumulativeShare(totals.inserted, batch, batches),
        indexedUpdates: cumulativeShare(totals.indexedUpdates, batch, batches),
        hotUpdates: cumulativeShare(totals.hotUpdates, batch, batches),
        audit: cumulativeShare(totals.audit, batch, batches),
      };
      await client.query('BEGIN');
      await insertRows('portal_objects', 'inserted', done.inserted, next.inserted);
      // A changed place, title or time: a column some index holds, so every index whose predicate the
      // row meets gets an entry.
      await updateRows('indexedUpdates', ids, next.inserted, next.indexedUpdates, last);
      // A child count: no index holds it, so the new version may stay on its page with no index entry.
      await updateRows('hotUpdates', parentIds, parentsWithin(next.inserted), next.hotUpdates, last);
      await insertRows('audit_events', 'audit', done.audit, next.audit);
      await timed('commit', () => client.query('COMMIT'));
      done.inserted = next.inserted;
      done.audit = next.audit;
    }
    const seconds = (performance.now() - startedAt) / 1000;
    await client.query('SELECT pg_stat_force_next_flush()');
    const copied = (await tableWrites(pool, floor)).find(({ table }) => table === 'portal_objects');
    return {
      events: options.events,
      seconds,
      kinds: [
        { kind: 'objects inserted', rows: rows.inserted, ms: ms.inserted },
        { kind: 'objects updated (an indexed column)', rows: rows.indexedUpdates, ms: ms.indexedUpdates },
        { kind: 'objects updated (a child count)', rows: rows.hotUpdates, ms: ms.hotUpdates },
        { kind: 'audit rows inserted', rows: rows.audit, ms: ms.audit },
        { kind: 'commits', rows: rows.commit, ms: ms.commit },
      ],
      objectUpdates: { updates: copied?.updates ?? 0, hot: copied?.hotUpdates ?? 0 },
    };
  } finally {
    // A batch that failed left its transaction open: end it before the drop.
    await client.query('ROLLBACK').catch(() => undefined);
    await client.query(`DROP SCHEMA IF EXISTS "${floor}" CASCADE`).catch(() => undefined);
    client.release();
  }
}
