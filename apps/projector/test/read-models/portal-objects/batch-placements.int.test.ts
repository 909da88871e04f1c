import type { RecordedEvent } from '@portal/domain';
import { batchPlacementsStatement, portalObjectsReadModel } from '@portal/read-model-portal-objects';
import { withClient } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  moved,
  RecordedEventLog,
  streamOf,
  updated,
} from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';

// A batch's footprints read, for the objects it renames, moves or deletes, whether any row lies below
// each (batch-footprints.ts). The read must find that through the ancestors index: planned freely, it
// scanned the whole table once per object with nothing below it (3 s a batch at 300,000 rows).

const db = useReadSchemas('batch-placements');
const log = new RecordedEventLog();
const record = (event: Parameters<typeof streamOf>[0]): RecordedEvent => log.record(event, streamOf(event));

const roots = 300;
const childrenEach = 100;

/** Many rows cheaply, straight into the table: `roots` catalogs with `childrenEach` collections each. */
async function fillTable(): Promise<void> {
  const columns = `id, parent_id, slug, kind, status, title, visibility, created_by, created_at, updated_at,
                   version, depth, ancestor_ids, effective_visibility, share_readers, share_editors,
                   read_principals, shares`;
  await withClient(db.pool, async (client) => {
    await client.query(`SET search_path TO "${db.schema}", public`);
    await client.query(
      `INSERT INTO portal_objects (${columns})
       SELECT gen_random_uuid(), NULL, 'bulk-' || g, 'catalog', 'ready', 'Bulk ' || g, 'public',
              gen_random_uuid(), now(), now(), 1, 1, '{}', 'public', '{}', '{}', '{}', '[]'
         FROM generate_series(1, $1::integer) g`,
      [roots],
    );
    await client.query(
      `INSERT INTO portal_objects (${columns})
       SELECT gen_random_uuid(), r.id, 'child-' || g, 'collection', 'ready', 'Child ' || g, 'public',
              gen_random_uuid(), now(), now(), 1, 2, ARRAY[r.id], 'public', '{}', '{}', '{}', '[]'
         FROM portal_objects r CROSS JOIN generate_series(1, $1::integer) g WHERE r.slug LIKE 'bulk-%'`,
      [childrenEach],
    );
    await client.query('ANALYZE portal_objects');
  });
}

describe('the batch placements', () => {
  it('tell the objects with rows below them (a tombstone too) from bare ones, by index only', async () => {
    const parent = catalogCreated({ title: 'Parent' });
    const child = collectionCreated({ title: 'Child', parentId: parent.data.id });
    const buried = collectionCreated({ title: 'Buried', parentId: child.data.id });
    const leaf = collectionCreated({ title: 'Leaf', parentId: parent.data.id });
    await db.apply([parent, child, buried, leaf].map(record));
    await db.apply([record(deleted({ id: buried.data.id, kind: 'collection', recursive: false }))]);
    await fillTable();

    // A later batch renames the parent, and moves the child (a tombstone below it) and the leaf.
    const batch = [
      record(updated({ id: parent.data.id, kind: 'catalog', changes: { title: 'P' }, previous: {} })),
      record(
        moved({ id: child.data.id, kind: 'collection', fromParentId: parent.data.id, toParentId: null }),
      ),
      record(moved({ id: leaf.data.id, kind: 'collection', fromParentId: parent.data.id, toParentId: null })),
    ];
    const footprints = await withClient(db.pool, async (client) => {
      await client.query(`SET search_path TO "${db.schema}", public`);
      const of = await portalObjectsReadModel.sets?.batchFootprints?.(client, batch);
      if (!of) throw new Error('portal objects give batch footprints');
      return batch.map((event) => of(event));
    });
    expect(footprints[0]).not.toBeNull();
    // The child has a tombstone below it: its move rewrites that row too, so it goes alone.
    expect(footprints[1]).toBeNull();
    expect(footprints[2]).not.toBeNull();

    const ids = (
      await db.pool.query<{ id: string }>(
        `SELECT id FROM "${db.schema}".portal_objects WHERE depth = 2 ORDER BY random() LIMIT 60`,
      )
    ).rows.map((row) => row.id);
    // Every plan of the statement, the function's own query too (auto_explain, nested statements).
    const plan = await withClient(db.pool, async (client) => {
      const notices: string[] = [];
      client.on('notice', (notice) => notices.push(notice.message ?? ''));
      await client.query(`SET search_path TO "${db.schema}", public; LOAD 'auto_explain';
        SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
        SET auto_explain.log_level = notice`);
      await client.query({ ...batchPlacementsStatement, values: [ids] });
      await client.query('RESET auto_explain.log_min_duration');
      return notices.join('\n');
    });
    expect(plan).toMatch(/portal_objects_ancestors/);
    expect(plan).not.toMatch(/Seq Scan on portal_objects /);
    expect(plan).not.toMatch(/Seq Scan on portal_objects/);
  });
});
