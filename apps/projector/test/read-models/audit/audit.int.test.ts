import { randomUUID } from 'node:crypto';
import {
  formatPosition,
  type OrganizationEvent,
  type RecordedEvent,
  type UserRegistered,
} from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { completionRequested, itemUploadStarted } from '../../support/item-events.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  RecordedEventLog,
  shared,
  streamOf,
  updated,
  visibilityChanged,
} from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';

const db = useReadSchemas('audit');
const log = new RecordedEventLog();
let clock = Date.parse('2025-04-01T00:00:00.000Z');

function at(actorId: string): ReturnType<typeof metadata> {
  clock += 1000;
  return metadata({ actorId, occurredAt: new Date(clock).toISOString() });
}

interface AuditRow {
  seq: string;
  event_id: string;
  position: string;
  stream_id: string;
  revision: string;
  type: string;
  org_id: string | null;
  object_id: string | null;
  object_kind: string | null;
  ancestor_ids: string[];
  actor_id: string | null;
  occurred_at: Date;
  data: unknown;
  metadata: unknown;
}

/** The rows of these events, in projection order. */
async function rowsOf(events: readonly RecordedEvent[], schema = db.schema): Promise<AuditRow[]> {
  const result = await db.pool.query<AuditRow>(
    `SELECT * FROM "${schema}".audit_events WHERE event_id = ANY($1::uuid[]) ORDER BY seq`,
    [events.map((event) => event.id)],
  );
  return result.rows;
}

/** What a row must say of its event, whatever the read model around it. */
function eventFacts(event: RecordedEvent) {
  return {
    event_id: event.id,
    position: formatPosition(event.position),
    stream_id: event.streamId,
    revision: event.revision.toString(),
    type: event.type,
    actor_id: event.metadata.actorId,
    occurred_at: new Date(event.metadata.occurredAt),
    data: event.data,
    metadata: event.metadata,
  };
}

function withoutSeq(rows: readonly AuditRow[]) {
  return rows.map(({ seq: _seq, ...rest }) => rest);
}

describe('audit_events read model', () => {
  it('writes one row per event, in order, with the organization, kind and ancestors at the time', async () => {
    const orgId = randomUUID();
    const actor = randomUUID();
    const root = catalogCreated({ title: 'Root', orgId });
    const left = catalogCreated({ title: 'Left', orgId, parentId: root.data.id });
    const right = catalogCreated({ title: 'Right', orgId });
    const leaf = collectionCreated({ title: 'Leaf', orgId, parentId: left.data.id });
    const item = itemUploadStarted({ title: 'Scene', orgId, parentId: leaf.data.id });
    const record = (event: Parameters<typeof streamOf>[0]) => log.record(event, streamOf(event), at(actor));
    const events = [
      record(root),
      record(left),
      record(right),
      record(leaf),
      record(item),
      record(completionRequested(item)),
      record(
        updated({
          id: leaf.data.id,
          kind: 'collection',
          changes: { title: 'Leaf 2' },
          previous: { title: 'Leaf' },
        }),
      ),
      // The leaf leaves root/left for right: the move is below both paths; later events below right only.
      record(
        moved({
          id: leaf.data.id,
          kind: 'collection',
          fromParentId: left.data.id,
          toParentId: right.data.id,
        }),
      ),
      record(visibilityChanged({ id: leaf.data.id, kind: 'collection', from: 'org', to: 'private' })),
      record(
        shared({
          id: right.data.id,
          kind: 'catalog',
          principal: { type: 'user', id: actor },
          permission: 'viewer',
          previous: null,
        }),
      ),
      record(deleted({ id: left.data.id, kind: 'catalog', recursive: false })),
      record(deleted({ id: right.data.id, kind: 'catalog', recursive: true })),
    ];
    await db.apply(events);

    const rows = await rowsOf(events);
    expect(rows.map((row) => row.event_id)).toEqual(events.map((event) => event.id));
    expect(rows.map((row) => Number(row.seq))).toEqual(
      [...rows.map((row) => Number(row.seq))].sort((a, b) => a - b),
    );
    for (const [index, row] of rows.entries()) {
      const event = events[index];
      if (!event) throw new Error('one row per event');
      expect(row).toMatchObject(eventFacts(event));
      expect(row.org_id).toBe(orgId);
    }
    const place = rows.map((row) => [row.object_id, row.object_kind, row.ancestor_ids]);
    const [r, l, g, c, i] = [root, left, right, leaf, item].map((event) => event.data.id);
    expect(place).toEqual([
      [r, 'catalog', []],
      [l, 'catalog', [r]],
      [g, 'catalog', []],
      [c, 'collection', [r, l]],
      [i, 'item', [r, l, c]],
      [i, 'item', [r, l, c]],
      [c, 'collection', [r, l]],
      [c, 'collection', [g, r, l]],
      [c, 'collection', [g]],
      [g, 'catalog', []],
      // A tombstone keeps its place: deletes are below their ancestors too.
      [l, 'catalog', [r]],
      [g, 'catalog', []],
    ]);
  });

  it("gives an organization's own events their organization and user events none", async () => {
    const orgId = randomUUID();
    const userId = randomUUID();
    const registered: UserRegistered = {
      type: 'UserRegistered',
      data: { userId, email: 'ada@example.org', name: 'Ada' },
    };
    const orgEvents: OrganizationEvent[] = [
      {
        type: 'OrganizationCreated',
        data: { orgId, name: 'Team', slug: 'team', personal: false, createdBy: userId },
      },
      { type: 'MemberAdded', data: { orgId, userId, role: 'owner', invitationId: null } },
    ];
    const events = [
      log.record(registered, `user-${userId}`, at(userId)),
      ...orgEvents.map((event) => log.record(event, `org-${orgId}`, at(userId))),
    ];
    await db.apply(events);

    const rows = await rowsOf(events);
    expect(
      rows.map((row) => [row.type, row.org_id, row.object_id, row.object_kind, row.ancestor_ids]),
    ).toEqual([
      ['UserRegistered', null, null, null, []],
      ['OrganizationCreated', orgId, null, null, []],
      ['MemberAdded', orgId, null, null, []],
    ]);
    for (const [index, row] of rows.entries())
      expect(row).toMatchObject(eventFacts(events[index] as RecordedEvent));
  });

  it('keeps the organization of the event, not the metadata (the caller’s active one), and none before identity', async () => {
    const orgId = randomUUID();
    const catalog = catalogCreated({ title: 'Owned', orgId });
    const legacy = catalogCreated({ title: 'Legacy' });
    const events = [
      log.record(catalog, streamOf(catalog), metadata({ orgId: randomUUID() })),
      log.record(legacy, streamOf(legacy), metadata({ actorId: null, orgId: null })),
    ];
    await db.apply(events);
    expect((await rowsOf(events)).map((row) => [row.org_id, row.actor_id])).toEqual([
      [orgId, events[0]?.metadata.actorId],
      [null, null],
    ]);
  });

  it('changes nothing on a replay, and a rebuild from zero gives the same rows but for seq', async () => {
    const orgId = randomUUID();
    const actor = randomUUID();
    const parent = catalogCreated({ title: 'Parent', orgId });
    const child = collectionCreated({ title: 'Child', orgId, parentId: parent.data.id });
    const other = catalogCreated({ title: 'Other', orgId });
    const record = (event: Parameters<typeof streamOf>[0]) => log.record(event, streamOf(event), at(actor));
    const events = [
      record(parent),
      record(child),
      record(other),
      record(
        moved({
          id: child.data.id,
          kind: 'collection',
          fromParentId: parent.data.id,
          toParentId: other.data.id,
        }),
      ),
      record(deleted({ id: other.data.id, kind: 'catalog', recursive: true })),
    ];
    await db.apply(events);
    const first = await rowsOf(events);

    // Again as a whole, and one old event late, as a projector re-reading a batch would.
    await db.apply(events);
    await db.apply(events.slice(1, 2));
    expect(await rowsOf(events)).toEqual(first);

    await db.apply(events, db.replica);
    expect(withoutSeq(await rowsOf(events, db.replica))).toEqual(withoutSeq(first));
  });
});
