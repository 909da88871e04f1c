import type { RecordedEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { RecordedEventLog } from '../../../test/support/portal-events.js';
import { useReadSchemas } from '../../../test/support/read-schemas.js';
import { PortalScenario } from '../../../test/support/scenario.js';
import { portalProjection } from '../../portal-projection.js';
import { ensureReadSchema } from '../../schemas.js';

const db = useReadSchemas('inventory-totals');

interface Bucket {
  org_key: string;
  kind: string;
  status: string;
  objects: string;
  bytes: string;
}

/** The maintained totals, leaving out buckets that emptied (their rows stay, at zero). */
async function maintained(schema: string): Promise<Bucket[]> {
  const result = await db.pool.query<Bucket>(
    `SELECT org_key, kind, status, object_count::text AS objects, asset_bytes::text AS bytes
       FROM "${schema}".inventory_totals WHERE object_count <> 0 OR asset_bytes <> 0
      ORDER BY org_key, kind, status`,
  );
  return result.rows;
}

/** The same totals counted from the rows: what the triggers must always agree with. */
async function recounted(schema: string): Promise<Bucket[]> {
  const result = await db.pool.query<Bucket>(
    `SELECT COALESCE(o.org_id, '00000000-0000-0000-0000-000000000000') AS org_key, o.kind, o.status,
            count(*)::text AS objects, COALESCE(sum(b.bytes), 0)::text AS bytes
       FROM "${schema}".portal_objects o
       LEFT JOIN (SELECT item_id, sum(size_bytes) AS bytes FROM "${schema}".assets GROUP BY item_id) b
         ON b.item_id = o.id AND o.kind = 'item'
      WHERE o.deleted_at IS NULL
      GROUP BY 1, 2, 3
      ORDER BY 1, 2, 3`,
  );
  return result.rows;
}

function scenarioEvents(seed: number, count: number): RecordedEvent[] {
  const scenario = new PortalScenario(seed, { items: true });
  const log = new RecordedEventLog();
  return Array.from({ length: count }, () => {
    const planned = scenario.plan();
    return log.record(planned.event, planned.streamId, planned.event.metadata);
  });
}

describe('inventory_totals read model', () => {
  const events = scenarioEvents(20261122, 1500);

  it('agrees with a recount after every batch of creates, updates, moves, deletes and uploads', async () => {
    const seen: Bucket[] = [];
    for (let start = 0; start < events.length; start += 100) {
      await db.apply(events.slice(start, start + 100));
      const totals = await maintained(db.schema);
      expect(totals).toEqual(await recounted(db.schema));
      seen.push(...totals);
    }
    // The scenario reached what the totals tell apart: every kind, several statuses, asset bytes.
    expect(new Set(seen.map((bucket) => bucket.kind)).size).toBe(3);
    expect(new Set(seen.map((bucket) => bucket.status)).size).toBeGreaterThan(2);
    expect(seen.some((bucket) => BigInt(bucket.bytes) > 0n)).toBe(true);
  });

  it('changes nothing when the events are applied again, and a replay from zero builds the same totals', async () => {
    const once = await maintained(db.schema);
    await db.apply(events);
    await db.apply(events.slice(400, 900));
    expect(await maintained(db.schema)).toEqual(once);

    await db.apply(events, db.replica);
    expect(await maintained(db.replica)).toEqual(once);
  });

  it('fills an empty totals table from the rows when the schema is set up again (a read schema from before it)', async () => {
    const before = await maintained(db.schema);
    await db.pool.query(`DELETE FROM "${db.schema}".inventory_totals`);
    expect(await maintained(db.schema)).toEqual([]);
    await ensureReadSchema(db.pool, { schema: db.schema, projection: portalProjection });
    expect(await maintained(db.schema)).toEqual(before);
  });

  it('follows statements on assets and objects that no handler issues today: updates, deletes, truncates', async () => {
    const { schema } = db;
    const withSearchPath = async (statements: readonly string[]): Promise<void> => {
      const client = await db.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL search_path TO "${schema}", public`);
        for (const statement of statements) await client.query(statement);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };
    const item = (n: number) => `'00000000-0000-4000-8000-${String(n).padStart(12, '0')}'`;
    await withSearchPath([
      `INSERT INTO portal_objects (id, kind, status, title, slug, depth, version, created_at, updated_at) VALUES
         (${item(1)}, 'item', 'ready', 'One', 'one-${Date.now()}', 1, 0, now(), now()),
         (${item(2)}, 'item', 'ready', 'Two', 'two-${Date.now()}', 1, 0, now(), now())`,
      `INSERT INTO assets (id, item_id, bucket, key, size_bytes, etag, created_at) VALUES
         (${item(11)}, ${item(1)}, 'b', 'k1', 1000, 'e', now()),
         (${item(12)}, ${item(1)}, 'b', 'k2', 20, 'e', now()),
         (${item(13)}, ${item(2)}, 'b', 'k3', 300, 'e', now())`,
      'UPDATE assets SET size_bytes = size_bytes * 2',
      `DELETE FROM assets WHERE id = ${item(12)}`,
      `UPDATE portal_objects SET status = 'failed' WHERE id = ${item(1)}`,
      `DELETE FROM portal_objects WHERE id = ${item(2)}`,
    ]);
    // Objects without an organization share the zero key: only this test's two items are there.
    const unowned = (await maintained(schema)).filter((bucket) =>
      bucket.org_key.startsWith('00000000-0000-0000'),
    );
    expect(unowned).toEqual([
      {
        org_key: '00000000-0000-0000-0000-000000000000',
        kind: 'item',
        status: 'failed',
        objects: '1',
        bytes: '2000',
      },
    ]);
    expect(await maintained(schema)).toEqual(await recounted(schema));
    await withSearchPath(['TRUNCATE assets']);
    expect(await maintained(schema)).toEqual(await recounted(schema));
    await withSearchPath(['TRUNCATE portal_objects']);
    expect(await maintained(schema)).toEqual([]);
  });
});
