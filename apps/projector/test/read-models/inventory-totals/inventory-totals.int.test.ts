import { randomUUID } from 'node:crypto';
import type { CreatedAccess, RecordedEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { maintainedTotals, recountedTotals, type TotalsBucket } from '../../support/inventory-totals.js';
import { assetAttached, itemUploadStarted } from '../../support/item-events.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  RecordedEventLog,
  shared,
  streamOf,
  unshared,
  visibilityChanged,
} from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';
import { PortalScenario } from '../../support/scenario.js';
import { portalProjection } from '../../../src/portal-projection.js';
import { ensureReadSchema } from '../../../src/schemas.js';

const db = useReadSchemas('inventory-totals');
const maintained = (schema: string) => maintainedTotals(db.pool, schema);
const recounted = (schema: string) => recountedTotals(db.pool, schema);

function scenarioEvents(seed: number, count: number): RecordedEvent[] {
  const scenario = new PortalScenario(seed, { items: true, access: true });
  const log = new RecordedEventLog();
  return Array.from({ length: count }, () => {
    const planned = scenario.plan();
    return log.record(planned.event, planned.streamId, planned.event.metadata);
  });
}

/** Runs the statements in one transaction on the schema, as a session other than the projector's. */
async function inSchema(statements: readonly string[]): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO "${db.schema}", public`);
    for (const statement of statements) await client.query(statement);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

describe('inventory_totals read model', () => {
  const events = scenarioEvents(20261122, 1500);

  it('agrees with a recount after every batch of creates, moves, deletes, uploads, visibility changes and shares', async () => {
    const seen: TotalsBucket[] = [];
    for (let start = 0; start < events.length; start += 100) {
      await db.apply(events.slice(start, start + 100));
      const totals = await maintained(db.schema);
      // Equal to the recount, which has no empty buckets: the triggers deleted the ones they emptied.
      expect(totals).toEqual(await recounted(db.schema));
      seen.push(...totals);
    }
    // The history reached what the totals tell apart: every kind, several statuses, asset bytes, and
    // access that moves rows between principal sets.
    const types = new Set(events.map((event) => event.type));
    for (const type of ['VisibilityChanged', 'ObjectShared', 'ObjectUnshared', 'PortalObjectMoved']) {
      expect(types).toContain(type);
    }
    expect(new Set(seen.map((bucket) => bucket.kind)).size).toBe(3);
    expect(new Set(seen.map((bucket) => bucket.status)).size).toBeGreaterThan(2);
    expect(seen.some((bucket) => BigInt(bucket.bytes) > 0n)).toBe(true);
    const sets = new Set(seen.map((bucket) => bucket.read_principals.join(' ')));
    expect(sets.size).toBeGreaterThan(10);
    expect([...sets].some((set) => !set.includes('public'))).toBe(true);
  });

  it('changes nothing when the events are applied again, and a replay from zero builds the same totals', async () => {
    const once = await maintained(db.schema);
    await db.apply(events);
    await db.apply(events.slice(400, 900));
    expect(await maintained(db.schema)).toEqual(once);

    for (let start = 0; start < events.length; start += 250) {
      await db.apply(events.slice(start, start + 250), db.replica);
    }
    expect(await maintained(db.replica)).toEqual(once);
  });

  it('moves a subtree’s objects between principal sets on visibility changes, shares, moves and deletes', async () => {
    const orgId = randomUUID();
    const creator = randomUUID();
    const guest = randomUUID();
    const access = (visibility: CreatedAccess['visibility']): CreatedAccess => ({
      orgId,
      visibility,
      createdBy: creator,
    });
    const log = new RecordedEventLog();
    const apply = (...applied: Parameters<typeof streamOf>[0][]) =>
      db.apply(applied.map((event) => log.record(event, streamOf(event), metadata())));
    // This test's buckets, principals named by role: `O` the organization, `C` the creator, `G` the guest.
    const buckets = async (): Promise<string[]> => {
      expect(await maintained(db.schema)).toEqual(await recounted(db.schema));
      const label = (principal: string) =>
        principal.replaceAll(orgId, 'O').replaceAll(creator, 'C').replaceAll(guest, 'G');
      return (await maintained(db.schema))
        .filter((bucket) => bucket.read_principals.includes(`admin:${orgId}`))
        .map((bucket) => {
          const principals = bucket.read_principals.map(label).join(',');
          return `${bucket.kind} ${bucket.status} ${bucket.objects} ${bucket.bytes} {${principals}}`;
        })
        .sort();
    };
    const sorted = (lines: string[]) => [...lines].sort();
    const open = '{admin:O,member:O,member:O/user:C,public}';
    const closed = '{admin:O,member:O/user:C}';

    const top = catalogCreated({ title: 'Totals top', ...access('public') });
    const other = catalogCreated({ title: 'Totals other', ...access('public') });
    const middle = collectionCreated({ title: 'Totals middle', parentId: top.data.id, ...access('public') });
    const items = [1, 2, 3].map((n) =>
      itemUploadStarted({ title: `Scene ${n}`, parentId: middle.data.id, ...access('public') }),
    );
    await apply(top, other, middle, ...items, ...items.map((item) => assetAttached(item)));
    const bytes = 3 * 20 * 1024 * 1024;
    expect(await buckets()).toEqual(
      sorted([
        `catalog ready 2 0 ${open}`,
        `collection ready 1 0 ${open}`,
        `item uploading 3 ${bytes} ${open}`,
      ]),
    );

    await apply(visibilityChanged({ id: top.data.id, kind: 'catalog', from: 'public', to: 'private' }));
    expect(await buckets()).toEqual(
      sorted([
        `catalog ready 1 0 ${closed}`,
        `catalog ready 1 0 ${open}`,
        `collection ready 1 0 ${closed}`,
        `item uploading 3 ${bytes} ${closed}`,
      ]),
    );

    const guestShare = { principal: { type: 'user', id: guest }, permission: 'viewer' } as const;
    await apply(shared({ id: top.data.id, kind: 'catalog', ...guestShare, previous: null }));
    const guested = '{admin:O,member:O/user:C,user:G}';
    expect(await buckets()).toEqual(
      sorted([
        `catalog ready 1 0 ${guested}`,
        `catalog ready 1 0 ${open}`,
        `collection ready 1 0 ${guested}`,
        `item uploading 3 ${bytes} ${guested}`,
      ]),
    );

    // Under the public catalog the collection and its items are open again, without the guest's share.
    await apply(
      moved({ id: middle.data.id, kind: 'collection', fromParentId: top.data.id, toParentId: other.data.id }),
      unshared({ id: top.data.id, kind: 'catalog', ...guestShare }),
    );
    expect(await buckets()).toEqual(
      sorted([
        `catalog ready 1 0 ${closed}`,
        `catalog ready 1 0 ${open}`,
        `collection ready 1 0 ${open}`,
        `item uploading 3 ${bytes} ${open}`,
      ]),
    );

    await apply(deleted({ id: other.data.id, kind: 'catalog', recursive: true }));
    expect(await buckets()).toEqual(sorted([`catalog ready 1 0 ${closed}`]));
  });

  it('follows statements no handler issues today: a new id, new principals, bytes, deletes, truncates', async () => {
    const marker = `user:${randomUUID()}`;
    const id = (n: number) => `'00000000-0000-4000-8000-${String(n).padStart(12, '0')}'`;
    const mine = async () =>
      (await maintained(db.schema))
        .filter((bucket) => bucket.read_principals.includes(marker))
        .map(
          (bucket) =>
            `${bucket.kind} ${bucket.status} ${bucket.objects} ${bucket.bytes} ${bucket.read_principals.join(',')}`,
        );
    await inSchema([
      `INSERT INTO portal_objects (id, kind, status, title, slug, depth, version, created_at, updated_at,
         read_principals, asset_bytes) VALUES
         (${id(1)}, 'item', 'ready', 'One', 'one-${Date.now()}', 1, 0, now(), now(), '{${marker}}', 1000),
         (${id(2)}, 'item', 'ready', 'Two', 'two-${Date.now()}', 1, 0, now(), now(), '{${marker}}', 300),
         (${id(3)}, 'item', 'ready', 'Three', 'three-${Date.now()}', 1, 0, now(), now(), '{${marker}}', 5)`,
      `UPDATE portal_objects SET id = ${id(4)} WHERE id = ${id(3)}`,
      `UPDATE portal_objects SET asset_bytes = asset_bytes * 2 WHERE id IN (${id(1)}, ${id(2)})`,
      `UPDATE portal_objects SET read_principals = '{public,${marker}}', status = 'failed' WHERE id = ${id(1)}`,
    ]);
    expect(await mine()).toEqual([`item failed 1 2000 public,${marker}`, `item ready 2 605 ${marker}`]);
    expect(await maintained(db.schema)).toEqual(await recounted(db.schema));

    await inSchema([
      `UPDATE portal_objects SET deleted_at = now() WHERE id = ${id(2)}`,
      `DELETE FROM portal_objects WHERE id = ${id(4)}`,
    ]);
    expect(await mine()).toEqual([`item failed 1 2000 public,${marker}`]);
    expect(await maintained(db.schema)).toEqual(await recounted(db.schema));
  });

  it('fills an empty totals table from the rows when the schema is set up again (a read schema from before it)', async () => {
    const before = await maintained(db.schema);
    expect(before.length).toBeGreaterThan(0);
    await db.pool.query(`DELETE FROM "${db.schema}".inventory_totals`);
    await ensureReadSchema(db.pool, { schema: db.schema, projection: portalProjection });
    expect(await maintained(db.schema)).toEqual(before);
  });

  it('replaces the totals kept per organization (before access rules) and their triggers on assets', async () => {
    const before = await maintained(db.schema);
    await inSchema([
      'DROP TABLE inventory_totals',
      `CREATE TABLE inventory_totals (org_key uuid NOT NULL, kind text NOT NULL, status text NOT NULL,
         object_count bigint NOT NULL, asset_bytes bigint NOT NULL, PRIMARY KEY (org_key, kind, status))`,
      `INSERT INTO inventory_totals VALUES ('00000000-0000-0000-0000-000000000000', 'item', 'ready', 7, 7)`,
      `CREATE FUNCTION inventory_totals_assets_inserted() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN RETURN NULL; END $$`,
      `CREATE TRIGGER inventory_totals_assets_inserted AFTER INSERT ON assets
         FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_assets_inserted()`,
    ]);
    await ensureReadSchema(db.pool, { schema: db.schema, projection: portalProjection });
    expect(await maintained(db.schema)).toEqual(before);
    const left = await db.pool.query(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = '"${db.schema}".assets'::regclass AND NOT tgisinternal`,
    );
    expect(left.rows).toEqual([]);
  });

  it('empties with a truncate', async () => {
    await inSchema(['TRUNCATE portal_objects']);
    expect(await maintained(db.schema)).toEqual([]);
  });
});
